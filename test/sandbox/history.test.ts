import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_UNIT_ID, REPORT_TYPES } from '../../src/sandbox/index.js';
import { arr, assertError, type Client, type J, keys, num, signedIn, str, T0 } from './helpers.js';

const PROPS = ['aid', 'did', 'name', 'availability', 'lat', 'lng', 'alt', 'speed', 'heading', 'source', 'address', 'date', 'battery', 'odometer', 'precision', 'satellites', 'temperature', 'reportType', 'reportValue', 'message'];
const dates = (fs: J[]): number[] => fs.map((f) => num(f.properties!.date));

describe('reports history', () => {
  let c: Client;
  const history = async (path: string): Promise<J[]> => {
    const r = await c.s('GET', path);
    assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
    assert.equal(str(r.json.success), 'Reports have been successfully retrieved.');
    return arr(r.json.features);
  };
  before(async () => {
    c = await signedIn({ benchReports: 5000, sessionTtl: 30 * 86400, accessTtl: 30 * 86400 });
  });
  after(async () => {
    await c.sb.close();
  });

  test('a week of reports per unit, GeoJSON features with every property, sorted by date, streamed', async () => {
    const r = await c.s('GET', '/reports/history/2004/');
    assert.equal(r.headers['transfer-encoding'], 'chunked');
    const fs = arr(r.json.features);
    // parked: one report per 10–30 minutes (at least 336 a week, less a few gaps); driving adds one per 30–60 s
    assert.ok(fs.length > 500 && fs.length < 20_000, `got ${fs.length}`);
    const ds = dates(fs);
    assert.deepEqual(ds, [...ds].sort((a, b) => a - b));
    assert.ok(ds[0]! >= T0 - 7 * 86400 && ds[ds.length - 1]! <= T0);
    const types = new Set<string>();
    for (const f of fs) {
      assert.equal(str(f.type), 'Feature');
      assert.deepEqual(keys(f.properties), PROPS);
      assert.deepEqual(f.geometry, { type: 'Point', coordinates: [f.properties!.lng, f.properties!.lat] } as unknown as J);
      assert.equal(num(f.properties!.did), 2004);
      assert.equal(num(f.properties!.aid), 1001);
      types.add(str(f.properties!.reportType));
    }
    assert.ok(types.size >= 8, `varied report types: ${[...types].join(',')}`);
    for (const t of types) assert.ok((REPORT_TYPES as readonly string[]).includes(t));
  });

  test('from/to select by report date: date > from and date <= to', async () => {
    const all = await history('/reports/history/2005/');
    const from = T0 - 86400;
    const to = T0 - 86400 + 12 * 3600;
    const sel = await history(`/reports/history/2005/from:${from}/to:${to}/`);
    const expected = all.filter((f) => num(f.properties!.date) > from && num(f.properties!.date) <= to);
    assert.ok(sel.length >= 20);
    assert.deepEqual(dates(sel), dates(expected));
    const onlyFrom = await history(`/reports/history/2005/from:${from}`);
    assert.deepEqual(dates(onlyFrom), dates(all.filter((f) => num(f.properties!.date) > from)));
    // boundaries: a report dated exactly `from` is excluded, one dated exactly `to` is included
    const d = num(sel[3]!.properties!.date);
    assert.deepEqual(dates(await history(`/reports/history/2005/from:${d}/to:${d}/`)), []);
    assert.deepEqual(dates(await history(`/reports/history/2005/from:${d - 1}/to:${d}/`)), [d]);
  });

  test('late-arriving reports: lastQueryTime selects by reception, so it returns reports older than lastQueryTime', async () => {
    const units = [2004, 2005, 2006, 2007, 2008, 2009, 2011, 2013, 2014, 2015];
    const t1 = T0 + 86400;
    c.sb.setNow(t1 * 1000);
    const seenAtT1 = new Map<number, Set<number>>();
    for (const u of units) seenAtT1.set(u, new Set(dates(await history(`/reports/history/${u}/`))));
    const t2 = t1 + 4 * 3600;
    c.sb.setNow(t2 * 1000);
    let late = 0;
    for (const u of units) {
      const since = await history(`/reports/history/${u}/lastQueryTime:${t1}/`);
      const byDate = await history(`/reports/history/${u}/from:${t1}/`);
      // everything dated after t1 arrived after t1 ...
      for (const d of dates(byDate)) assert.ok(dates(since).includes(d));
      for (const d of dates(since)) {
        assert.ok(!seenAtT1.get(u)!.has(d), 'a report is received once');
        if (d <= t1) late++;
      }
      // ... and the late ones are what lastQueryTime adds over from
      assert.ok(since.length >= byDate.length);
      // combined with from/to, lastQueryTime narrows the date window
      const combo = await history(`/reports/history/${u}/from:${t1 - 6 * 3600}/to:${t1}/lastQueryTime:${t1}/`);
      for (const f of combo) assert.ok(num(f.properties!.date) <= t1 && num(f.properties!.date) > t1 - 6 * 3600);
      assert.equal(combo.length, dates(since).filter((d) => d <= t1).length);
    }
    assert.ok(late >= 3, `late arrivals seen: ${late}`);
    c.sb.setNow(T0 * 1000);
  });

  test('history keeps growing as the clock advances', async () => {
    const before1 = (await history('/reports/history/2006/')).length;
    c.sb.setNow((T0 + 6 * 3600) * 1000);
    const after1 = await history('/reports/history/2006/');
    c.sb.setNow(T0 * 1000);
    assert.ok(after1.length >= before1 + 10, `${before1} → ${after1.length}`);
    assert.ok(Math.max(...dates(after1)) > T0);
  });

  test('reportTypes filters; combines with from/to', async () => {
    const fs = await history(`/reports/history/2004/from:${T0 - 3 * 86400}/to:${T0}/reportTypes:motion_state,gps_fix`);
    assert.ok(fs.length > 0);
    for (const f of fs) assert.ok(['motion_state', 'gps_fix'].includes(str(f.properties!.reportType)));
    const sensor = await history('/reports/history/2016/reportTypes:sensor/');
    assert.ok(sensor.length > 0);
    assert.equal(typeof sensor[0]!.properties!.temperature, 'number');
  });

  test('stale and inactive units stopped reporting', async () => {
    const all = Object.values((await c.v2('GET', '/v2/devices/')).json.result!);
    const stale = all.filter((u) => num(u.lastGPSTimestamp) < T0 - 86400);
    assert.ok(stale.length >= 2);
    for (const u of stale) {
      const fs = await history(`/reports/history/${num(u.did)}/`);
      assert.equal(Math.max(...dates(fs)), num(u.lastGPSTimestamp));
    }
  });

  test('bad segments are 400 naming the segment; unknown units 404', async () => {
    const bad: Array<[string, string]> = [
      [`to:${T0}/from:${T0 - 10}`, 'from'],
      [`from:${T0 - 10}/from:${T0 - 5}`, 'from'],
      ['from:yesterday', 'from'],
      [`to:${T0}`, 'to'],
      ['since:5', 'since'],
      ['reportTypes:report,teleport', 'reportTypes'],
      ['reportTypes:', 'reportTypes'],
      [`reportTypes:report/lastQueryTime:${T0}`, 'lastQueryTime'],
      ['from', 'from'],
    ];
    for (const [seg, field] of bad) {
      const r = await c.s('GET', `/reports/history/2004/${seg}/`);
      assertError(r, 400, 'invalid_request', field);
      assert.ok(str(r.json.message).length > 10);
    }
    assertError(await c.s('GET', `/reports/history/2004/from:${T0}/to:${T0 - 10}/`), 422, 'invalid_value', 'from');
    assertError(await c.s('GET', '/reports/history/424242/'), 404, 'not_found');
    assertError(await c.s('GET', '/reports/history/abc/'), 400, 'invalid_request', 'id');
    assertError(await c.s('GET', '/reports/history/'), 404, 'not_found');
  });

  test('the bench unit streams benchReports reports', async () => {
    const fs = await history(`/reports/history/${BENCH_UNIT_ID}/`);
    assert.equal(fs.length, 5000);
    assert.deepEqual(keys(fs[0]!.properties), PROPS);
    const first = num(fs[0]!.properties!.date);
    const some = await history(`/reports/history/${BENCH_UNIT_ID}/from:${first + 9}/to:${first + 19}/`);
    assert.deepEqual(dates(some), Array.from({ length: 10 }, (_, i) => first + 10 + i));
    const types = await history(`/reports/history/${BENCH_UNIT_ID}/reportTypes:sos`);
    assert.ok(types.length > 0 && types.every((f) => str(f.properties!.reportType) === 'sos'));
  });
});

test('history is deterministic given the seed and the clock', async () => {
  const text = async (seed: number): Promise<string> => {
    const c = await signedIn({ seed });
    try {
      return (await c.s('GET', '/reports/history/2004/')).text;
    } finally {
      await c.sb.close();
    }
  };
  const a = await text(3);
  assert.equal(await text(3), a);
  assert.notEqual(await text(4), a);
});
