/**
 * watch --exit-on against the sandbox, with a frozen clock the test moves forward: the watch
 * ends with exit 0 once it printed the SOS that the history shows; Ctrl-C before any is 130;
 * an unknown event name is exit 2 before anything is sent.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';

interface Props {
  did: number;
  date: number;
  reportType: string;
}
interface Event {
  event: string;
  did: number;
  time: number;
}

const HOUR = 3600;
const DAY = 0 | (Date.now() / 1000 / 86400);
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The exit code, or -1 when the run has not ended within a minute (only bounds a hang). */
const exitOf = (run: { exit: Promise<number> }): Promise<number> => Promise.race([run.exit, new Promise<number>((r) => setTimeout(() => r(-1), 60_000).unref())]);

describe('watch --exit-on', () => {
  let h: Harness;
  // Signed in before the windows searched, with tokens that outlive them.
  let clock = (DAY - 15) * 86400 * 1000;
  /** The window (T0, T1] in which `unit` sends an SOS, received at or before T1. */
  let T0 = 0;
  let T1 = 0;
  let unit = 0;
  let sos: Props | undefined;

  const polls = (did: number): number => h.sandbox.requests.filter((r) => r.path.startsWith(`/reports/history/${did}/`)).length;
  async function until(cond: () => boolean, what: string): Promise<void> {
    const end = Date.now() + 60_000;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  before(async () => {
    h = await startHarness({ now: () => clock, sessionTtl: 60 * 86400, accessTtl: 60 * 86400, refreshTtl: 60 * 86400 });
    // The sandbox's history is a function of time: find a six-hour window of the last days with an SOS in it.
    for (let back = 1; back <= 14 && !sos; back++) {
      T0 = (DAY - back) * 86400 + 12 * HOUR;
      T1 = T0 + 6 * HOUR;
      clock = T1 * 1000;
      const r = await h.run(['history', '--category', 'device', '--received-after', String(T0), '--types', 'sos', '-o', 'ndjson']);
      assert.equal(r.code, 0, r.stderr);
      sos = lines(r.stdout).map((l) => (JSON.parse(l) as { properties: Props }).properties).sort((a, b) => a.date - b.date)[0];
    }
    assert.ok(sos, 'some device sends an SOS in a six-hour window of the last two weeks');
    unit = sos.did;
    clock = T0 * 1000;
  });
  after(async () => {
    await h.close();
  });

  test('an unknown event name is exit 2 and sends nothing', async () => {
    await h.expectUsage(['watch', '2004', '--exit-on', 'sos,explosion'], 'explosion');
    await h.expectUsage(['watch', '2004', '--exit-on', ','], '--exit-on');
  });

  test('exits 0 once the SOS the history shows was printed, even with a unit that failed beside it', async () => {
    const out = join(h.dir, 'exit-on.ndjson');
    h.sandbox.clearRequests();
    // 999999 does not exist: named on stderr, yet the event came, so `watch --exit-on sos && page` pages.
    const run = spawnTo(h, ['watch', String(unit), '999999', '--interval', '1s', '--exit-on', 'sos', '-o', 'ndjson'], out);
    try {
      await until(() => polls(unit) >= 1, 'the first poll');
      clock = T1 * 1000;
      assert.equal(await exitOf(run), 0, run.err());
      assert.match(run.err(), /999999/);
    } finally {
      run.kill('SIGKILL');
      clock = T0 * 1000;
    }
    const events = lines(readFileSync(out, 'utf8')).map((l) => JSON.parse(l) as Event);
    const alerts = events.filter((e) => e.event === 'sos');
    assert.ok(alerts.some((e) => e.did === unit && e.time === sos!.date), `the SOS of ${sos!.date} was printed: ${JSON.stringify(alerts)}`);
    assert.ok(events.every((e) => e.did === unit));
  });

  test('Ctrl-C before any matching event exits 130', async () => {
    const out = join(h.dir, 'interrupted.ndjson');
    h.sandbox.clearRequests();
    const run = spawnTo(h, ['watch', String(unit), '--interval', '1s', '--exit-on', 'sos', '-o', 'ndjson'], out);
    await until(() => polls(unit) >= 1, 'the first poll');
    run.kill('SIGINT');
    const code = await exitOf(run);
    run.kill('SIGKILL');
    assert.equal(code, 130, run.err());
    assert.ok(lines(readFileSync(out, 'utf8')).every((l) => (JSON.parse(l) as Event).event !== 'sos'));
  });
});
