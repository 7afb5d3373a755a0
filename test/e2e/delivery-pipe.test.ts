/**
 * `history --all-units --checkpoint c -o ndjson | head -n 50000`, against the sandbox with its
 * clock frozen: the reader goes away, the run fails and saves no unit, and the next run
 * delivers every report at least once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';
import { pipeToHead } from '../helpers/head.js';

const NOW = Math.floor(Date.now() / 1000 / 3600) * 3600;
const FROM = String(NOW - 24 * 3600);
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
/** A report's identity (the de-duplication key the help documents). */
function key(line: string): string {
  const p = (JSON.parse(line) as { properties: Record<string, unknown> }).properties;
  return JSON.stringify([p.did, p.date, p.reportType, p.reportValue, p.lat, p.lng, p.message]);
}

describe('a reader that goes away', () => {
  let h: Harness;
  before(async () => {
    // 300 more devices: about 70,000 reports a day, far more than head takes or a pipe holds.
    h = await startHarness({ now: () => NOW * 1000, sessionTtl: 30 * 86400, devices: 300 });
  });
  after(async () => h.close());

  test('history --all-units --checkpoint | head -n 50000: the run fails, saves no unit, and the next run delivers every report', async () => {
    const truth = await h.run(['history', '--all-units', '--from', FROM, '-o', 'ndjson'], { timeoutMs: 300_000 });
    assert.equal(truth.code, 0, truth.stderr);
    const all = new Set(lines(truth.stdout).map(key));
    assert.ok(all.size > 60_000, `enough reports to outrun the pipe: ${all.size}`);

    const ck = join(h.dir, 'head.ckpt');
    const first = pipeToHead(h, ['history', '--all-units', '--from', FROM, '--checkpoint', ck, '-o', 'ndjson'], 50_000);
    assert.equal(await first.headExit, 0);
    const code = await first.exit;
    assert.equal(code, 1, `the first run fails: ${first.err()}`);
    assert.match(first.err(), /its reader went away \(EPIPE\)/);
    assert.equal(lines(first.out()).length, 50_000);
    assert.deepEqual((JSON.parse(readFileSync(ck, 'utf8')) as { units: object }).units, {}, 'no unit saved');

    const again = await h.run(['history', '--all-units', '--checkpoint', ck, '-o', 'ndjson'], { timeoutMs: 300_000 });
    assert.equal(again.code, 0, again.stderr);
    const got = new Set([...lines(first.out()), ...lines(again.stdout)].map(key));
    const missing = [...all].filter((k) => !got.has(k));
    assert.equal(missing.length, 0, `${missing.length} of ${all.size} reports never arrived`);
    const third = await h.run(['history', '--all-units', '--checkpoint', ck, '-o', 'ndjson'], { timeoutMs: 300_000 });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout, '', 'every unit saved by the run that delivered');
  });

});
