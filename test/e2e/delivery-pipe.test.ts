/**
 * `history --all-units --checkpoint c -o ndjson | head -n 50000`, against the sandbox with its
 * clock frozen: the reader goes away, the run fails and saves no unit, and the next run
 * delivers every report at least once. Following into a reader that stays, a round is saved
 * once more than the pipe can hold was taken after it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';
import { pipeToHead } from '../helpers/head.js';

/** The latest Wednesday noon (UTC): the day before it and the day after are working days in every zone, so the
 * reports' number does not follow the day the suite runs on (a Sunday's day brings half a weekday's). */
const NOW = ((): number => {
  const d = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000);
  while (d.getUTCDay() !== 3 || d.getTime() > Date.now()) d.setUTCDate(d.getUTCDate() - 1);
  return d.getTime() / 1000;
})();
const FROM = String(NOW - 24 * 3600);
let clock = NOW * 1000;
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
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400, devices: 300 });
  });
  after(async () => h.close());

  test('history --all-units --checkpoint | head: the run fails, saves no unit, and the next run delivers every report', async () => {
    const truth = await h.run(['history', '--all-units', '--from', FROM, '-o', 'ndjson'], { timeoutMs: 300_000 });
    assert.equal(truth.code, 0, truth.stderr);
    const all = new Set(lines(truth.stdout).map(key));
    // head takes all but 10,000 reports (about 5 MB, far more than a pipe holds): the run meets a reader that left.
    assert.ok(all.size > 30_000, `enough reports: ${all.size}`);
    const take = Math.min(50_000, all.size - 10_000);

    const ck = join(h.dir, 'head.ckpt');
    const first = pipeToHead(h, ['history', '--all-units', '--from', FROM, '--checkpoint', ck, '-o', 'ndjson'], take);
    assert.equal(await first.headExit, 0);
    const code = await first.exit;
    assert.equal(code, 141, `the first run fails quietly, as one killed by SIGPIPE: ${first.err()}`);
    assert.doesNotMatch(first.err(), /error|EPIPE/);
    assert.equal(lines(first.out()).length, take);
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

  test('history --follow --checkpoint into a reader that stays: a round is saved once more than the pipe holds followed it; Ctrl-C, then a re-run, delivers every report', async () => {
    const from = String(NOW - 6 * 3600);
    const ck = join(h.dir, 'follow.ckpt');
    const units = (): Record<string, unknown> => {
      try {
        return (JSON.parse(readFileSync(ck, 'utf8')) as { units: Record<string, unknown> }).units;
      } catch {
        return {};
      }
    };
    const until = async (what: string, done: () => boolean, state: () => string): Promise<void> => {
      const end = Date.now() + 300_000;
      while (!done()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${state()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      const firstWindow = await h.run(['history', '--all-units', '--from', from, '--to', String(NOW), '-o', 'ndjson'], { timeoutMs: 300_000 });
      assert.equal(firstWindow.code, 0, firstWindow.stderr);
      const firstRound = lines(firstWindow.stdout).length;
      assert.ok(firstWindow.stdout.length > 2 * 1024 * 1024, `a round larger than a pipe holds: ${firstWindow.stdout.length} bytes`);

      // A reader that reads everything and stays (cat: it passes on what it read at once).
      const run = pipeToHead(h, ['history', '--all-units', '--from', from, '--follow', '--interval', '1s', '--checkpoint', ck, '-o', 'ndjson'], 'all');
      try {
        const seen = (): string => `${lines(run.out()).length} of ${firstRound} lines out; stderr: ${run.err().slice(-2000)}`;
        await until('the first round', () => lines(run.out()).length >= firstRound, seen);
        await new Promise((r) => setTimeout(r, 3000)); // quiet rounds: nothing written after the first
        assert.deepEqual(units(), {}, 'nothing written after the first round: it may still sit in the pipe, unsaved');
        // A day more of reports: more after the first round than the pipe (here a Unix socket, as a parent
        // process's pipes are: twice net.core.wmem_max) can hold.
        clock = (NOW + 24 * 3600) * 1000;
        await until('the first round saved', () => Object.keys(units()).length > 0, seen);
        run.kill('SIGINT');
        assert.equal(await run.exit, 0, run.err());
      } finally {
        run.kill('SIGKILL');
      }
      const again = await h.run(['history', '--all-units', '--checkpoint', ck, '-o', 'ndjson'], { timeoutMs: 300_000 });
      assert.equal(again.code, 0, again.stderr);
      const truth = await h.run(['history', '--all-units', '--from', from, '--to', String(NOW + 24 * 3600), '-o', 'ndjson'], { timeoutMs: 300_000 });
      const got = new Set([...lines(run.out()), ...lines(again.stdout)].map(key));
      const missing = lines(truth.stdout).map(key).filter((k) => !got.has(k));
      assert.equal(missing.length, 0, `${missing.length} reports never arrived`);
      assert.ok(lines(again.stdout).length < lines(truth.stdout).length, 'the saved rounds are not delivered again');
    } finally {
      clock = NOW * 1000;
    }
  });

});
