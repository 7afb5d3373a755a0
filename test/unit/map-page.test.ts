/** Map pages without a browser: simplification, the data they carry, escaping, and size. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportFeature } from '../../src/api/types.js';
import { simplifyIndices, simplifyToBudget } from '../../src/io/pages/map/simplify.js';
import { HistoryCollector, historyTitle } from '../../src/io/pages/map/history.js';
import { renderPage, scriptJson } from '../../src/io/pages/map/page.js';
import { unitState, unitsPageData } from '../../src/io/pages/map/units.js';
import { buildTripsPage, tripsPageData, writeTripsPage } from '../../src/io/pages/map/trips.js';
import { pageFileName, writePage } from '../../src/io/pages/map/target.js';
import type { OutputOptions } from '../../src/io/formats/output.js';
import { memoryIO } from '../helpers/io.js';
import { messyJson, seeded } from '../helpers/messy-json.js';
import { sanitizeText } from '../../src/sanitize.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function report(did: number, i: number, extra: Partial<ReportFeature['properties']> = {}): ReportFeature {
  const lat = 33.7 + Math.sin(i / 50) * 0.05;
  const lng = -84.4 + i * 0.0002;
  return {
    type: 'Feature',
    properties: {
      aid: 1, did, name: `Van ${did}`, availability: 'available', lat, lng, alt: 300, speed: 42.5, heading: 90, source: 'gps',
      address: `${i % 40} Peachtree St, Atlanta, GA`, date: 1_795_500_000 + i * 10, battery: 80, odometer: 1000 + i / 10, precision: 5,
      satellites: 9, temperature: null, reportType: 'report', reportValue: 'periodic', message: 'Periodic position report', ...extra,
    },
    geometry: { type: 'Point', coordinates: [lng, lat] },
  };
}

test('simplifyIndices: a straight line keeps its ends; a corner and the kept indices stay', () => {
  const lat = [0, 0, 0, 0, 0, 1, 2];
  const lng = [0, 1, 2, 3, 4, 4, 4];
  assert.deepEqual(simplifyIndices(lat, lng, 0.01), [0, 4, 6]);
  assert.deepEqual(simplifyIndices(lat, lng, 0.01, [2]), [0, 2, 4, 6]);
  assert.deepEqual(simplifyIndices(lat, lng, 10), [0, 6], 'a large tolerance keeps only the ends');
  assert.deepEqual(simplifyIndices([1], [2], 1), [0]);
  assert.deepEqual(simplifyIndices([], [], 1), []);
});

test('simplifyIndices: a track that doubles back keeps its far end (distance to the segment, not the line)', () => {
  const lat = [0, 0, 0, 0];
  const lng = [0, 5, 1, 2];
  assert.deepEqual(simplifyIndices(lat, lng, 0.5), [0, 1, 2, 3]);
});

test('simplifyToBudget: 100,000 points come down to the budget, endpoints and events kept, without deep recursion', () => {
  const n = 100_000;
  const lat = Array.from({ length: n }, (_, i) => 33 + Math.sin(i / 300) * 0.1 + (i % 7) * 1e-5);
  const lng = Array.from({ length: n }, (_, i) => -84 + i * 1e-5);
  const events = [17, 50_001, 99_998];
  const kept = simplifyToBudget(lat, lng, 2000, events);
  assert.ok(kept.length <= 2000 && kept.length > 100, `${kept.length} vertices`);
  for (const i of [0, n - 1, ...events]) assert.ok(kept.includes(i), `keeps ${i}`);
  assert.deepEqual(kept, [...kept].sort((a, b) => a - b), 'ascending');
  assert.equal(simplifyToBudget(lat.slice(0, 10), lng.slice(0, 10), 2000).length, 10, 'under the budget: every point');
});

test('HistoryCollector groups by did, sorts by date, keeps every report exact, and names the window', () => {
  const c = new HistoryCollector();
  const a = [report(7, 2), report(7, 0, { reportType: 'sos' }), report(7, 1)];
  const b = [report(9, 0, { speed: Number.NaN, address: null }), report(9, 1, { reportType: 'crash' })];
  for (const f of [a[0]!, b[0]!, a[1]!, b[1]!, a[2]!]) c.add(f);
  c.add(report(9, 3, { lat: 0, lng: 0 })); // no fix: not drawable
  const page = c.page('UTC');
  assert.equal(page.title, 'History of Van 7 and Van 9');
  assert.match(page.subtitle, /^2026-\d\d-\d\d \d\d:\d\d – 2026-\d\d-\d\d \d\d:\d\d UTC · 5 reports$/);
  const [t7, t9] = page.tracks;
  assert.equal(t7!.did, 7);
  assert.deepEqual(t7!.t, [1_795_500_000, 10, 10], 'dates sorted, then as differences');
  assert.deepEqual(t7!.lat, [0, 1, 2].map((i) => report(7, i).properties.lat), 'positions exact');
  assert.equal(page.types[t7!.k[0]!], 'sos', 'the report type follows its report through the sort');
  assert.deepEqual(t9!.v, [null, 42.5]);
  assert.equal(t9!.a[0], -1);
  assert.notEqual(t7!.color, t9!.color);
  assert.deepEqual(page.legend.map((l) => l.shape), ['line', 'line', 'dot', 'sos', 'crash']);
});

test('historyTitle names up to three units', () => {
  assert.equal(historyTitle([]), 'History: no reports');
  assert.equal(historyTitle(['A', 'B', 'C']), 'History of A, B and C');
  assert.equal(historyTitle(['A', 'B', 'C', 'D', 'E']), 'History of A, B and 3 more units');
});

test('a day of one unit at one report every 10 seconds is well under 1 MB', () => {
  const c = new HistoryCollector();
  for (let i = 0; i < 8640; i++) c.add(report(7, i, { reportType: i % 1000 === 0 ? 'crash' : 'report' }));
  const page = c.page('UTC');
  const size = Buffer.byteLength([...renderPage(page)].join(''));
  assert.ok(size < 700 * 1024, `${size} bytes`);
  assert.equal(page.tracks[0]!.t.length, 8640, 'every report is in the page');
  assert.ok(page.tracks[0]!.dots.length <= 3000, 'the dots are thinned');
  for (let i = 0; i < 8640; i += 1000) assert.ok(page.tracks[0]!.line.includes(i), 'the line goes through every event');
});

test('the data cannot close its script element; the title is escaped', () => {
  assert.equal(scriptJson({ name: '</script><script>alert(1)</script>' }), '{"name":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}');
  const c = new HistoryCollector();
  c.add(report(7, 0, { name: '</script><b>"Van" & co', address: '<!-- x' }));
  const html = [...renderPage(c.page('UTC'))].join('');
  assert.match(html, /<title>History of &#60;\/script&#62;&#60;b&#62;&#34;Van&#34; &#38; co<\/title>/);
  const data = /<script type="application\/json" id="map-data">(.*?)<\/script>/s.exec(html)![1]!;
  assert.doesNotMatch(data, /</);
  assert.equal((JSON.parse(data) as { tracks: Array<{ name: string }> }).tracks[0]!.name, '</script><b>"Van" & co');
  assert.equal(html.match(/<\/script>/g)!.length, 3, 'Leaflet, the data, the page script');
});

test('scriptJson writes what JSON.stringify with a replacer cleaning each string writes, on messy data', () => {
  const strings = ['""', '"Van 7"', '"\\u001b[31mred\\u001b[0m"', '"\\u202eevil"', '"bell\\u0007"', '"</script>"', '"\\u2028line"', '"Crème 日本 🚗"', '"tab\\there"'];
  const { value } = messyJson({ numbers: ['0', '-0', '1.5', '-84.39', '1e300'], strings, names: ['name', 'a', 'lat', 'é', '\u202e'], bare: 1, flatFrom: 3, members: 4 });
  const replaced = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' ? sanitizeText(x) : x)).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  for (let seed = 1; seed <= 3000; seed++) {
    const r = seeded(seed);
    const v = JSON.parse(value(r, 0)) as unknown;
    const withNumbers = { t: [1, Number.NaN, -0, Infinity, 2.5], v: [null, 3, 'x\u0007'], nested: v, n: Number.NaN };
    for (const data of [v, withNumbers, [v, v]]) {
      const before = JSON.stringify(data);
      assert.equal(scriptJson(data), replaced(data), `seed ${seed}`);
      assert.equal(JSON.stringify(data), before, 'the data itself is left as it was');
    }
  }
});

test('unit states: moving within 10 minutes, stale past the threshold, stopped between', () => {
  const now = 1_800_000_000_000;
  assert.equal(unitState(now / 1000 - 60, now, 86400), 'moving');
  assert.equal(unitState(now / 1000 - 3600, now, 86400), 'stopped');
  assert.equal(unitState(now / 1000 - 90000, now, 86400), 'stale');
  assert.equal(unitState(0, now, 86400), 'stale');
  const page = unitsPageData(
    [
      { category: 'device', did: 1, name: 'A', lastValidLatitude: 33.1, lastValidLongitude: -84.1, lastGPSTimestamp: now / 1000 - 60 },
      { category: 'device', did: 2, name: 'B', lastValidLatitude: 0, lastValidLongitude: 0, lastGPSTimestamp: now / 1000 },
      { category: 'dispatcher', uid: 3, name: 'C' },
    ],
    { nowMs: now, staleS: 86400, zone: 'UTC' },
  );
  assert.deepEqual(page.units.map((u) => [u.id, u.state]), [[1, 'moving']]);
  assert.match(page.subtitle, /1 unit on the map · 1 without a position/);
});

test('trips: a path is simplified and kept, a trip without one is start to end; stops keep their fields', () => {
  const page = tripsPageData(
    [
      { did: 2, name: 'B', start: 100, end: 200, duration: 100, distanceKm: 1, startLat: 1, startLng: 2, endLat: 3, endLng: 4 },
      { did: 1, name: 'A', start: 100, end: 200, duration: 100, distanceKm: 1, startLat: 1, startLng: 2, endLat: 1, endLng: 4, path: [[2, 1], [3, 1], [4, 1]] },
      { did: 1, name: 'A', start: 300, end: 400, duration: 100, distanceKm: 1, startLat: 0, startLng: 0, endLat: 0, endLng: 0 },
    ],
    [{ did: 1, name: 'A', arrival: 200, departure: null, duration: 50, lat: 1, lng: 4 }],
    'UTC',
  );
  assert.deepEqual(page.trips.map((t) => [t.did, t.routed, t.path]), [[2, false, [1, 2, 3, 4]], [1, true, [1, 2, 1, 3, 1, 4]]], 'the unplaced trip is left out');
  assert.equal(page.trips[1]!.color, page.stops[0]!.color, 'a unit keeps its colour');
  assert.deepEqual(page.stops[0], { did: 1, name: 'A', color: page.stops[0]!.color, arrival: 200, departure: null, duration: 50, lat: 1, lng: 4, address: null });
  assert.equal(page.title, 'Trips and stops of A, B', 'units in did order');
});

test('pageFileName: kind and UTC time', () => {
  assert.equal(pageFileName('history', Date.UTC(2026, 10, 21, 10, 4, 5)), 'trackctl-history-20261121-100405.html');
});

const outFor = (tty: boolean, messages: string[] = []): OutputOptions & { io: ReturnType<typeof memoryIO> } => {
  const io = memoryIO(tty);
  io.err = (text) => void messages.push(text);
  return { io, format: 'table', header: true, color: false, tty, now: () => Date.UTC(2026, 10, 21, 10, 4, 5), timeZone: 'UTC' };
};

test('writeTripsPage: the page on stdout when it is not a terminal', async () => {
  const out = outFor(false);
  await writeTripsPage([], [], out);
  assert.equal(out.io.text(), buildTripsPage([], [], 'UTC'));
  assert.match(out.io.text(), /<title>Trips and stops of no units<\/title>/);
});

test('writePage on a terminal: a new file in the current directory, never overwritten, named on stderr', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-page-'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const messages: string[] = [];
    const out = outFor(true, messages);
    const first = await writePage(['<p>one</p>'], out, 'units');
    const second = await writePage(['<p>two</p>'], out, 'units');
    assert.equal(out.io.text(), '', 'no markup on the terminal');
    assert.deepEqual(readdirSync(dir).sort(), ['trackctl-units-20261121-100405-1.html', 'trackctl-units-20261121-100405.html']);
    assert.equal(readFileSync(first!, 'utf8'), '<p>one</p>');
    assert.equal(readFileSync(second!, 'utf8'), '<p>two</p>');
    assert.match(messages[0]!, new RegExp(`^Wrote the map to ${first!.replace(/[.]/g, '[.]')} \\(1 KB\\)`));
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});
