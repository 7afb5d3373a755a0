import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ReportFeature } from '../../src/api/types.js';
import { summary, summaryProcessor, type DaySummary } from '../../src/reports/summary.js';
import { DEFAULTS } from '../../src/reports/params.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const N = 1_000_000;
const T0 = Date.UTC(2025, 0, 1) / 1000;

/**
 * A unit that drives 20 minutes and stands 20 minutes, out and back, over and over, a report
 * every 30 s (347 days for a million reports), with an odometer. Each report is a fresh
 * object, as parsed JSON would be.
 */
function* synthetic(n: number): Iterable<ReportFeature> {
  let lng = 11.5;
  let odometer = 1000;
  for (let i = 0; i < n; i++) {
    const moving = i % 80 < 40;
    if (moving) {
      lng += Math.floor(i / 80) % 2 === 0 ? 0.004 : -0.004; // 0.3 km at 48° N: 36 km/h
      odometer += 0.297;
    }
    yield {
      type: 'Feature',
      properties: {
        aid: 1, did: 9, name: 'Bench', availability: 'available', lat: 48.1, lng, alt: 500, speed: moving ? 36 : 0, heading: 90,
        source: 'gps', address: null, date: T0 + i * 30, battery: 80, odometer: Math.round(odometer * 10) / 10, precision: 5,
        satellites: 9, temperature: null, reportType: 'report', reportValue: 'periodic', message: '',
      },
      geometry: { type: 'Point', coordinates: [lng, 48.1] },
    };
  }
}

// The processor is driven directly: node --test tracks every promise with async hooks, which
// would measure the test runner rather than the algorithm (outside it, the async summary()
// over an async source runs at about the same rate as here).
test('a summary over 1,000,000 reports runs in constant memory', (t) => {
  const p = summaryProcessor('Europe/Berlin');
  const before = heapAfterGc();
  const started = performance.now();
  let days = 0;
  let trips = 0;
  let km = 0;
  const add = (rows: Iterable<DaySummary>) => {
    for (const day of rows) {
      days++;
      trips += day.trips;
      km += day.distanceKm;
    }
  };
  for (const r of synthetic(N)) add(p.push(r));
  const seconds = (performance.now() - started) / 1000;
  const during = heapAfterGc(); // the stream is over, the state of the unit is still held
  add(p.finish());
  const rate = Math.round(N / seconds);
  t.diagnostic(`summary: ${N} reports in ${seconds.toFixed(2)} s, ${rate} reports/s; heap ${((during - before) / 1e6).toFixed(2)} MB more at the end of the stream`);
  // the results are those of the synthetic drive: a trip every 40 minutes of 40 segments of
  // 0.297 km (the odometer, rounded to 0.1 km; the first from the stop to the first moving
  // report); a trip across midnight counts on both days
  assert.equal(days, 348);
  assert.ok(trips >= N / 80 && trips < N / 80 + days, `${trips} trips`);
  const expectedKm = (N / 80) * 40 * 0.297;
  assert.ok(Math.abs(km - expectedKm) < expectedKm * 0.001, `${km} km, expected ${expectedKm}`);
  // a report held per report would be >100 MB; the state of one unit is a few kB
  assert.ok(during - before < 8e6, `heap grew by ${during - before} bytes`);
  assert.ok(rate > 20_000, `${rate} reports/s`);
});

test('the async summary() gives what the processor gives', async () => {
  async function* source(): AsyncIterable<ReportFeature> {
    yield* synthetic(50_000);
  }
  const viaAsync = [];
  for await (const day of summary(source(), 'Europe/Berlin')) viaAsync.push(day);
  const p = summaryProcessor('Europe/Berlin');
  const direct: DaySummary[] = [];
  for (const r of synthetic(50_000)) direct.push(...p.push(r));
  direct.push(...p.finish());
  assert.equal(direct.length, 18);
  assert.deepEqual(viaAsync, direct);
});

/** KB held per unit after streaming two hours of 2,000 units (a report every 30 s) through summary processors. */
function heldPerUnit(order: { windowS?: number }): number {
  const UNITS = 500; // enough that the heap's noise is well under 0.1 KB a unit
  const units: ReturnType<typeof summaryProcessor>[] = [];
  for (let u = 0; u < UNITS; u++) units.push(summaryProcessor('UTC', DEFAULTS, order));
  const before = heapAfterGc();
  let rows = 0;
  for (let i = 0; i < 240; i++) {
    for (let u = 0; u < UNITS; u++) {
      const moving = i < 120; // drives the first hour
      const r: ReportFeature = {
        type: 'Feature',
        properties: {
          aid: 1, did: u, name: `Unit ${u}`, availability: 'available', lat: 40 + u / 1000, lng: -105 + (moving ? i : 120) * 0.004,
          alt: 1600, speed: moving ? 36 : 0, heading: 90, source: 'gps', address: `${u} Main St`, date: T0 + i * 30, battery: 80,
          odometer: null, precision: 5, satellites: 9, temperature: null, reportType: 'report', reportValue: 'periodic', message: '',
        },
        geometry: { type: 'Point', coordinates: [-105, 40] },
      };
      rows += [...(units[u] as (typeof units)[number]).push(r)].length;
    }
  }
  const held = (heapAfterGc() - before) / UNITS / 1024;
  for (const p of units) rows += [...p.finish()].length;
  assert.equal(rows, UNITS, 'one day row per unit');
  return held;
}

test('the state of a unit is a few kB, plus the reports the reorder window holds', (t) => {
  const bare = heldPerUnit({ windowS: 0 });
  const windowed = heldPerUnit({ windowS: 900 });
  const perReport = (windowed - bare) / 30;
  t.diagnostic(
    `held per unit: ${bare.toFixed(1)} KB with no reorder window, ${windowed.toFixed(1)} KB with a 900 s window (30 reports of 30 s): ` +
      `${perReport.toFixed(2)} KB a held report, so ~${(bare + perReport * (DEFAULTS.reorderWindowS / 30)).toFixed(0)} KB with the default ${DEFAULTS.reorderWindowS} s`,
  );
  assert.ok(bare < 8, `${bare} KB per unit without a window`);
  // a unit that kept its 240 reports would hold ~100 KB
  assert.ok(windowed < bare + 31 * 1.5, `${windowed} KB per unit`);
});
