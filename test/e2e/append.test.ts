/**
 * `>> all.ndjson` after a killed run: the file ends in half a record. The next run
 * starts with a newline, so its records are whole lines and jq reads every one of them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';

// A frozen sandbox clock and an absolute window: every run sees the same reports.
const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
const FROM = String(Date.UTC(2026, 10, 24, 9, 0, 0) / 1000);
const TO = String(Date.UTC(2026, 10, 25, 9, 0, 0) / 1000);

describe('appending to a file that ends in a torn line', () => {
  let h: Harness;
  before(async () => {
    // In-process; spawned where stdout must be a file opened for append (spawnTo).
    h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400, inProcess: true });
  });
  after(async () => h.close());

  const appendRun = async (file: string, args: string[]): Promise<void> => {
    const run = spawnTo(h, args, file);
    assert.equal(await run.exit, 0, run.err());
  };

  test('history -o ndjson >> a file cut mid-record: the torn half stays a line of its own, every new record is whole', async (t) => {
    if (!needTool(t, 'jq')) return;
    const file = join(h.dir, 'all.ndjson');
    const whole = (await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson']));
    assert.equal(whole.code, 0, whole.stderr);
    const records = whole.stdout.trimEnd().split('\n');
    assert.ok(records.length > 2, 'the window has reports');
    // What a stream killed in the middle of its third record leaves behind.
    const torn = (records[2] as string).slice(0, 25);
    writeFileSync(file, `${records[0]}\n${records[1]}\n${torn}`);
    await appendRun(file, ['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson']);
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines[2], torn, 'the torn half is alone on its line');
    assert.deepEqual(lines.slice(3, -1), records, 'every record of the new run is a whole line');
    // jq, line by line: everything but the torn half is read.
    const jq = spawnSync('jq', ['-cR', 'fromjson? // empty', file], { encoding: 'utf8' });
    assert.equal(jq.status, 0, jq.stderr);
    assert.equal(jq.stdout.trimEnd().split('\n').length, 2 + records.length);
  });

  test('a file that ends in a newline, or is empty, gets no extra line', async () => {
    const file = join(h.dir, 'clean.ndjson');
    writeFileSync(file, '');
    await appendRun(file, ['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson']);
    const first = readFileSync(file, 'utf8');
    assert.ok(first.length > 0 && !first.startsWith('\n'));
    await appendRun(file, ['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson']);
    assert.equal(readFileSync(file, 'utf8'), first + first, 'two runs, no blank line between');
  });
});
