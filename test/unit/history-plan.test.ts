import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryItem, HistoryQuery } from '../../src/api/history.js';
import type { ReportFeature } from '../../src/api/types.js';
import { UsageError } from '../../src/errors.js';
import { Cursor, OVERLAP_S, Poll } from '../../src/runs/cursor.js';
import { DEFAULT_WINDOW_S, parsePlan } from '../../src/commands/history/options.js';
import { formatCount } from '../../src/io/terminal/progress.js';

const NOW_MS = Date.UTC(2026, 10, 21, 12) / 1000 * 1000;
const NOW = NOW_MS / 1000;

test('plan: default window is the last 24 hours; --all sends no time', () => {
  assert.deepEqual(parsePlan(['12'], {}, NOW_MS, 'UTC').window, { from: NOW - DEFAULT_WINDOW_S });
  assert.deepEqual(parsePlan(['12'], { all: true }, NOW_MS, 'UTC').window, {});
  assert.deepEqual(parsePlan(['12'], { receivedAfter: '2h ago' }, NOW_MS, 'UTC').window, { lastQueryTime: NOW - 7200 });
  assert.deepEqual(parsePlan(['12'], { from: '2026-11-20', to: 'now', receivedAfter: '15m', types: ['sos,crash', 'sos'] }, NOW_MS, 'UTC').window, {
    from: Date.UTC(2026, 10, 20) / 1000, to: NOW, lastQueryTime: NOW - 900, reportTypes: ['sos', 'crash'],
  });
  assert.equal(parsePlan(['12'], { from: '1795000000.7' }, NOW_MS, 'UTC').window.from, 1795000000);
  assert.equal(parsePlan(['12'], { follow: true, interval: 60 }, NOW_MS, 'UTC').intervalMs, 60_000);
});

test('plan: bad input is a UsageError', () => {
  const bad: Array<[string[], Record<string, unknown>, RegExp]> = [
    [['0'], {}, /unit id/], [['abc'], {}, /unit id/], [[], {}, /unit id/],
    [['1'], { to: 'now' }, /--to needs --from/],
    [['1'], { from: 'now', to: '1h ago' }, /is after --to/],
    [['1'], { types: ['sos,bogus'] }, /unknown report type "bogus"; valid types: report, reporting_mode/],
    [['1'], { types: ['sos,'] }, /empty entry/],
    [['1'], { from: 'yesterday-ish' }, /invalid --from/],
    [['1'], { from: '1795000000000' }, /milliseconds/],
    [['1'], { all: true, from: '1h' }, /--all cannot/],
    [['1'], { follow: true, from: '1h', to: 'now' }, /--to cannot be used with --follow/],
    [['1'], { interval: 5 }, /--interval needs --follow/],
  ];
  for (const [args, opts, message] of bad) {
    assert.throws(() => parsePlan(args, opts, NOW_MS, 'UTC'), (err: unknown) => err instanceof UsageError && message.test(err.message), `${args} ${JSON.stringify(opts)}`);
  }
});

interface SimReport { id: number; date: number; received: number }

function item(r: SimReport): HistoryItem {
  const feature = { type: 'Feature', properties: { did: 1, date: r.date, reportType: 'report', reportValue: String(r.id), lat: 0, lng: 0, message: '' } } as unknown as ReportFeature;
  return { text: JSON.stringify(feature), feature, verbatim: true };
}

/** A service: reports dated every 10 min, ~10 % received 1–6 h late; filters like the interface says. */
function service(seed: number): (q: HistoryQuery, now: number) => SimReport[] {
  let x = seed;
  const rand = (): number => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const reports: SimReport[] = [];
  for (let i = 0; i < 2000; i++) {
    const date = NOW - 3 * 86400 + i * 600 + Math.floor(rand() * 60);
    reports.push({ id: i, date, received: date + (rand() < 0.1 ? 3600 + Math.floor(rand() * 5 * 3600) : 2 + Math.floor(rand() * 30)) });
  }
  return (q, now) =>
    reports.filter((r) => r.received <= now && (q.from === undefined || r.date > q.from) && (q.lastQueryTime === undefined || r.received > q.lastQueryTime));
}

for (const skew of [0, -7200, 7200]) {
  test(`cursor: runs across late arrivals print every report received exactly once (service clock skew ${skew} s)`, () => {
    for (let seed = 1; seed <= 5; seed++) {
      const answer = service(seed);
      let cursor = new Cursor(undefined);
      const printed: number[] = [];
      const end = NOW + 86400;
      let now = NOW - 2 * 86400;
      for (let run = 0; ; run++) {
        const query = cursor.next({}, undefined); // the first run: --all
        const poll = new Poll();
        const reply = answer(query, now).map(item);
        const fresh = poll.fresh(reply.slice(0, 10), cursor.seen).concat(poll.fresh(reply.slice(10), cursor.seen));
        const failed = now < end && run % (seed + 1) === 1;
        if (failed && seed % 2 === 0) {
          // --checkpoint: a run that fails part-way exits non-zero; its output is discarded and nothing is saved
          cursor = new Cursor(cursor.lastQueryTime, new Set(cursor.seen));
        } else if (failed) {
          // --follow: a poll that fails part-way has printed what it printed; the time stays
          printed.push(...fresh.map((i) => Number(i.feature.properties.reportValue)));
          cursor.salvage(poll);
        } else {
          printed.push(...fresh.map((i) => Number(i.feature.properties.reportValue)));
          cursor.commit(poll, query, now + skew);
          assert.ok((cursor.lastQueryTime ?? 0) <= now, 'never past the service clock');
          cursor = new Cursor(cursor.lastQueryTime, new Set(cursor.seen)); // the checkpoint file round trip
        }
        if (now >= end && !failed) break;
        now = Math.min(end, now + 60 + ((seed * 7919 * run) % 5400));
      }
      const expected = answer({}, end).map((r) => r.id).sort((a, b) => a - b);
      assert.equal(new Set(printed).size, printed.length, 'no report printed twice');
      const got = new Set(printed);
      const missing = expected.filter((id) => !got.has(id));
      const extra = printed.filter((id) => !expected.includes(id));
      assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, 'every report received by the last run, none lost');
    }
  });
}

test('cursor: the next lastQueryTime trails the newest date and the Date header by the overlap, and never goes back', () => {
  const cursor = new Cursor(undefined);
  const poll = new Poll();
  poll.fresh([item({ id: 1, date: 1000, received: 1005 }), item({ id: 2, date: 5000, received: 5001 })], new Set());
  cursor.commit(poll, { from: 100 }, 9000);
  assert.equal(cursor.lastQueryTime, 5000 - OVERLAP_S);
  cursor.commit(new Poll(), { lastQueryTime: 4700 }, 1000);
  assert.equal(cursor.lastQueryTime, 5000 - OVERLAP_S, 'an earlier Date header does not move it back');
  assert.deepEqual(cursor.next({ from: 1 }, ['sos']), { lastQueryTime: 4700, reportTypes: ['sos'] });
  const empty = new Cursor(undefined);
  empty.commit(new Poll(), {}, undefined);
  assert.equal(empty.lastQueryTime, 0, '--all with nothing printed: next time, everything received');
});

test('cursor: a reply without reports leaves it where the window or the last reply put it, whatever its Date header says', () => {
  // A proxy's Date an hour ahead of the service: the service's clock is what its reports prove.
  const silent = new Cursor(undefined);
  silent.commit(new Poll(), { from: 1000 }, 1000 + 3600);
  assert.equal(silent.lastQueryTime, 1000);
  silent.commit(new Poll(), { lastQueryTime: 1000 }, 1000 + 7200);
  assert.equal(silent.lastQueryTime, 1000);
  const poll = new Poll();
  poll.fresh([item({ id: 1, date: 2000, received: 2001 })], new Set());
  silent.commit(poll, { lastQueryTime: 1000 }, 2000 + 3600);
  assert.equal(silent.lastQueryTime, 2000 - OVERLAP_S, 'the newest report moves it, the header only bounds it');
});

test('the progress count is grouped as en-US writes it, without Intl', () => {
  for (const n of [0, 7, 42, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 1_234_567_890, Number.MAX_SAFE_INTEGER]) {
    assert.equal(formatCount(n), n.toLocaleString('en-US'), String(n));
  }
});
