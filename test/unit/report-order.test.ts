import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportPoint } from '../../src/api/types.js';
import { inDateOrder } from '../../src/reports/order.js';
import { run } from '../../src/reports/stream.js';
import { collect, report } from './report-fixture.js';

const dates = (rs: ReportPoint[]) => rs.map((r) => r.properties.date);

test('reports within the window are released in date order, equal dates in arrival order', async () => {
  const input = [100, 300, 200, 250, 1000, 150, 1000, 5000].map((d, i) => report({ date: d, lng: 11 + i / 100 }));
  const late: number[] = [];
  const out = await collect(run(input, inDateOrder({ windowS: 900, onLate: (r) => late.push(r.properties.date) })));
  assert.deepEqual(dates(out), [100, 150, 200, 250, 300, 1000, 1000, 5000]);
  assert.deepEqual(out.slice(5, 7).map((r) => r.properties.lng), [11.04, 11.06]);
  assert.deepEqual(late, []);
});

test('a report older than what was released is passed to onLate and left out', async () => {
  const input = [100, 200, 3000, 150, 2500, 5000, 1000].map((d) => report({ date: d }));
  const late: number[] = [];
  const p = inDateOrder({ windowS: 1000, onLate: (r) => late.push(r.properties.date) });
  const released: number[] = [];
  for (const r of input) released.push(...dates([...p.push(r)]));
  // 3000 releases what is 1000 s older (100, 200, …), so 150 comes too late; 2500 still fits
  assert.deepEqual(released, [100, 200, 2500, 3000]);
  released.push(...dates([...p.finish()]));
  assert.deepEqual(released, [100, 200, 2500, 3000, 5000]);
  assert.deepEqual(late, [150, 1000]);
});

test('at most maxHeld reports are held', () => {
  const p = inDateOrder({ windowS: 1e9, maxHeld: 3 });
  const out: number[] = [];
  for (let d = 1; d <= 10; d++) out.push(...dates([...p.push(report({ date: d }))]));
  assert.deepEqual(out, [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(dates([...p.finish()]), [8, 9, 10]);
});

test('an exact repeat of the report just released is dropped', async () => {
  const a = report({ date: 100 });
  const b = report({ date: 160 });
  const other = report({ date: 160, reportType: 'motion_state', reportValue: 'moving' });
  const out = await collect(run([a, b, structuredClone(b), other, structuredClone(other)], inDateOrder({ windowS: 0 })));
  assert.deepEqual(out.map((r) => `${r.properties.date}/${r.properties.reportType}`), ['100/report', '160/report', '160/motion_state']);
});

/** The order's rules written the plain way (a sorted array, spliced): what ordered() must release, report for report. */
function reference(input: ReportPoint[], windowS: number, maxHeld: number): { out: ReportPoint[]; late: ReportPoint[] } {
  const held: ReportPoint[] = [];
  const out: ReportPoint[] = [];
  const late: ReportPoint[] = [];
  let newest = -Infinity;
  let last: ReportPoint | undefined;
  const release = (upTo: number): void => {
    while (held.length > 0 && ((held[0] as ReportPoint).properties.date <= upTo || held.length > maxHeld)) {
      const r = held.shift() as ReportPoint;
      const p = r.properties;
      const q = last?.properties;
      if (q && q.date === p.date && q.reportType === p.reportType && q.lat === p.lat && q.lng === p.lng && q.reportValue === p.reportValue) continue;
      last = r;
      out.push(r);
    }
  };
  for (const r of input) {
    const date = r.properties.date;
    if (last && date < last.properties.date) {
      late.push(r);
      continue;
    }
    const at = held.findIndex((h) => h.properties.date > date);
    held.splice(at < 0 ? held.length : at, 0, r);
    newest = Math.max(newest, date);
    release(newest - windowS);
  }
  release(Infinity);
  return { out, late };
}

test('a long stream with late reports, equal dates and repeats is released as the plain rules say, whatever the window and bound', () => {
  let seed = 7;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const [windowS, maxHeld, lateShare] of [[60, 2000, 0.1], [600, 100, 0.3], [30, 5, 0.5], [1e9, 300, 0.05], [0, 1, 0.2]] as const) {
    const input: ReportPoint[] = [];
    let t = 1_000_000;
    for (let i = 0; i < 5000; i++) {
      t += Math.floor(random() * 3); // equal dates too
      const date = random() < lateShare ? t - Math.floor(random() * 2 * windowS + random() * 400) : t;
      const r = report({ date, lng: 11 + (i % 7) / 100 });
      input.push(r);
      if (random() < 0.05) input.push(structuredClone(r)); // a repeat
    }
    const want = reference(input, windowS, maxHeld);
    const late: ReportPoint[] = [];
    const p = inDateOrder({ windowS, maxHeld, onLate: (r) => late.push(r) });
    const out: ReportPoint[] = [];
    for (const r of input) out.push(...p.push(r));
    out.push(...p.finish());
    assert.ok(want.late.length > 0 && want.out.length > 1000, 'the stream has late reports and released ones');
    assert.equal(out.length, want.out.length, `window ${windowS}, bound ${maxHeld}`);
    out.forEach((r, i) => assert.equal(r, want.out[i], `window ${windowS}, bound ${maxHeld}: report ${i}`));
    assert.deepEqual(late, want.late);
  }
});
