/**
 * report trips|stops|summary|geofence against the sandbox's ground truth (what each unit
 * really did, GET /_sandbox/truth/<did>), formats read back by real parsers, bad input.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';

interface TruthTrip { start: number; end: number; distanceKm: number; maxSpeed: number; reports: number; inSilence: boolean; short: boolean }
interface TruthStop { arrival: number; departure: number | null; lat: number; lng: number; reports: number }
interface TruthOverspeed { start: number; end: number; maxSpeed: number; reports: number; firstReport: number | null; lastReport: number | null }
interface Truth { interval: { driving: number | null; parked: number }; trips: TruthTrip[]; stops: TruthStop[]; gaps: Array<{ from: number; to: number }>; overspeed: TruthOverspeed[] }
interface Trip { did: number; start: number; end: number; duration: number; distanceKm: number; maxSpeed: number; startLat: number; endLat: number; partial: boolean }
interface Episode { did: number; start: number; end: number; maxSpeed: number; limit: number; partial: boolean }

// A frozen clock at 04:00 in the sandbox city's standard time (UTC-5 for the default seed's
// Atlanta), the morning after a Wednesday.
const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);

// Seven whole days: every trip of them has ended by the clock.
const TO = Date.UTC(2026, 10, 26, 9, 0, 0) / 1000;
const FROM = TO - 7 * 86400;
const WINDOW = ['--from', String(FROM), '--to', String(TO)];


// Seven days of the whole fleet, several times over: minutes on a loaded machine (the bound only catches a hang).
describe('report', { timeout: 900_000 }, () => {
  let h: Harness;
  let vehicles: number[];
  const truths = new Map<number, Truth>();
  before(async () => {
    h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400, inProcess: true });
    const devices = await h.json<Array<{ did: number; isActive: number }>>(['devices', 'list']);
    vehicles = devices.map((d) => d.did);
    for (const did of vehicles) {
      const res = await fetch(`${h.sandbox.url}/_sandbox/truth/${did}?from=${FROM}&to=${TO}&limit=100`);
      assert.equal(res.status, 200, await res.clone().text());
      truths.set(did, (await res.json()) as Truth);
    }
  });
  after(async () => {
    await h.close();
  });

  const inside = (start: number, end: number | null): boolean => start >= FROM && end !== null && end <= TO;

  test('--explain says why, on stderr or as records; report geofence --help lists only its options', async () => {
    const did = String(vehicles[0]);
    const text = await h.run(['report', 'trips', did, ...WINDOW, '--explain']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stderr, /explain: \d+ \(.+\) stop .*stayed within --stop-radius 100 m/);
    assert.match(text.stderr, /explain: \d+ \(.+\) trip .*a trip \(at least --min-trip-/);
    // lengths of time as people read them (as the options take them), never a count of seconds
    assert.match(text.stderr, /stayed within --stop-radius 100 m for (\d+[dhm] )?\d+[dhms] \(at least --min-stop 5m\)/);
    assert.doesNotMatch(text.stderr, /\d s\b/);
    // In another zone, the zone's clock with its offset (the table's rows, on stdout, are unchanged).
    const tokyo = await h.run(['report', 'trips', did, ...WINDOW, '--explain', '--tz', 'Asia/Tokyo']);
    assert.equal(tokyo.code, 0, tokyo.stderr);
    assert.match(tokyo.stderr, /^explain: \d+ \(.+\) stop \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+09:00 → /m);
    assert.doesNotMatch(tokyo.stderr, /\d{2}Z/);
    assert.equal(tokyo.stdout, text.stdout);
    const records = await h.json<Array<{ kind: string; from: number; to: number; reason: string }>>(['report', 'stops', did, ...WINDOW, '--explain']);
    assert.ok(records.some((r) => r.kind === 'stop') && records.some((r) => r.kind === 'trip'));
    assert.deepEqual(Object.keys(records[0] ?? {}), ['did', 'name', 'kind', 'from', 'to', 'distanceKm', 'lat', 'lng', 'reason']);
    const help = (await h.run(['report', 'geofence', '--help'])).stdout;
    for (const flag of ['--min-trip-distance', '--min-stop', '--speed-threshold', '--explain', '--max-gap', '--limit']) assert.ok(!help.includes(flag), `geofence --help lists ${flag}`);
    assert.ok(help.includes('--geofence'));
    const overspeed = (await h.run(['report', 'overspeed', '--help'])).stdout;
    for (const flag of ['--limit', '--min-duration', '--geofence']) assert.ok(overspeed.includes(flag));
  });

  test('--explain records of several units come unit by unit, in the units\' order, the same on every run', async () => {
    const ids = [...vehicles].sort((a, b) => a - b).map(String);
    const runs = [];
    for (let i = 0; i < 2; i++) {
      // A process of its own: the units' replies arrive side by side, as a user's run gets them.
      const r = await h.spawn(['report', 'trips', ...ids, ...WINDOW, '--explain', '-o', 'ndjson', '--concurrency', '8']);
      assert.equal(r.code, 0, r.stderr);
      runs.push(r.stdout);
    }
    const dids = runs[0]!.trim().split('\n').map((l) => (JSON.parse(l) as { did: number }).did);
    assert.ok(new Set(dids).size > 1, 'explanations of several units');
    // One run of records a unit, the units in the order they were named (their did order).
    const order = dids.filter((d, i) => i === 0 || dids[i - 1] !== d);
    assert.deepEqual(order, [...new Set(order)].sort((a, b) => a - b), `units interleaved or out of order: ${order.slice(0, 20).join(' ')}`);
    assert.equal(runs[1], runs[0], 'the same records in the same order');
  });

  test('overspeed in a depot with a speedLimit, in every format', async (t) => {
    const depots = await (await fetch(`${h.sandbox.url}/_sandbox/depots`)).text();
    const file = h.file('depots.geojson', depots);
    const limits = (JSON.parse(depots) as { features: Array<{ properties: { name: string; speedLimit?: number } }> }).features.filter((f) => f.properties.speedLimit !== undefined);
    assert.ok(limits.length >= 1);
    const fleet = ['report', 'overspeed', '--category', 'device', ...WINDOW, '--concurrency', '2', '--limit', '100'];
    const plain = await h.json<Episode[]>(fleet);
    assert.ok(plain.every((e) => e.limit === 100 && e.maxSpeed > 100 && e.end - e.start >= 30));
    const fenced = await h.json<Array<Episode & { fence: string | null }>>([...fleet, '--geofence', file]);
    assert.ok(fenced.length >= plain.length, 'a lower limit in a depot adds episodes, never removes one');
    for (const e of fenced.filter((x) => x.fence !== null)) assert.equal(e.limit, limits.find((l) => l.properties.name === e.fence)?.properties.speedLimit);
    const csv = await h.run([...fleet, '-o', 'csv']);
    assert.match(csv.stdout.split('\n')[0] ?? '', /^did,name,start,end,duration,maxSpeed,avgSpeed,limit,distanceKm,lat,lng,fence,partial\r?$/);
    const geo = JSON.parse((await h.run([...fleet, '-o', 'geojson'])).stdout) as { features: Array<{ geometry: { type: string } }> };
    assert.equal(geo.features.length, plain.length);
    assert.ok(geo.features.every((f) => f.geometry.type === 'LineString'));
    const html = await h.run([...fleet, '-o', 'html']);
    assert.equal(html.code, 0, html.stderr);
    assert.match(html.stdout, /^<!doctype html>/i);
    assert.match(html.stdout, /Overspeed: \d+ episodes? of \d+ units?/);
    await h.expectUsage(['report', 'overspeed', '2004'], '--limit');
    await h.expectUsage(['report', 'overspeed', '2004', '--limit', 'fast'], '--limit');
    if (!needTool(t, 'jq')) return;
    const jq = spawnSync('jq', ['-e', 'all(.[]; .partial | type == "boolean")'], { input: JSON.stringify(fenced) });
    assert.equal(jq.status, 0);
  });

  test('a group report equals the union of single-unit reports; formats read back', async (t) => {
    const group = await h.json<Trip[]>(['report', 'trips', '--group', '101', '--from', String(FROM), '--to', String(TO)]);
    const members = [...new Set(group.map((x) => x.did))];
    assert.ok(members.length >= 2);
    let total = 0;
    for (const did of members) {
      const single = await h.json<Trip[]>(['report', 'trips', String(did), '--from', String(FROM), '--to', String(TO)]);
      assert.deepEqual(group.filter((x) => x.did === did), single);
      total += single.length;
    }
    assert.equal(group.length, total);
    const geo = await h.run(['report', 'trips', '--group', '101', '--from', String(FROM), '--to', String(TO), '-o', 'geojson']);
    const fc = JSON.parse(geo.stdout) as { features: Array<{ geometry: { type: string; coordinates: number[][] }; properties: Trip }> };
    assert.equal(fc.features.length, total);
    assert.ok(fc.features.every((f) => f.geometry.type === 'LineString' && f.geometry.coordinates.length >= 2 && !('path' in f.properties)));
    const stops = await h.run(['report', 'stops', '2004', '--from', String(FROM), '--to', String(TO), '-o', 'geojson']);
    assert.ok((JSON.parse(stops.stdout) as { features: Array<{ geometry: { type: string } }> }).features.every((f) => f.geometry.type === 'Point'));
    const csv = await h.run(['report', 'summary', '--group', '101', '--from', String(FROM), '--to', String(TO), '-o', 'csv']);
    assert.match(csv.stdout.split('\n')[0] ?? '', /^did,name,day,distanceKm,odometerKm,drivingTime,stoppedTime,maxSpeed,trips,firstReport,lastReport,startOdometer,endOdometer/);
    // Rows by unit, then day: not in the order the units' histories happened to finish.
    const keys = csv.stdout.trim().split('\n').slice(1).map((l) => l.split(','));
    assert.ok(new Set(keys.map((k) => k[0])).size > 1, 'several units');
    const sorted = [...keys].sort((a, b) => Number(a[0]) - Number(b[0]) || String(a[2]).localeCompare(String(b[2])));
    assert.deepEqual(keys.map((k) => `${k[0]} ${k[2]}`), sorted.map((k) => `${k[0]} ${k[2]}`));
    if (needTool(t, 'xmllint')) {
      const gpx = await h.run(['report', 'trips', '--group', '101', '--from', String(FROM), '--to', String(TO), '-o', 'gpx']);
      assert.equal(spawnSync('xmllint', ['--noout', '-'], { input: gpx.stdout }).status, 0);
      assert.equal(gpx.stdout.match(/<trk>/g)?.length, total);
    }
  });

  test('a group without units: the report says so on stderr, as history and watch do (exit 0, no rows)', async () => {
    const gid = (await h.json<{ gid: number }>(['groups', 'create', '--name', 'Nobody here'])).gid;
    const r = await h.run(['report', 'trips', '--group', String(gid), '--from', String(FROM), '--to', String(TO), '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), []);
    assert.equal(r.stderr.trim(), `No units in group ${gid}.`);
    const quiet = await h.run(['report', 'summary', '--group', String(gid), '--from', String(FROM), '--quiet', '-o', 'csv']);
    assert.equal(quiet.stderr, '');
  });

  test('a report that finds nothing says so at a terminal, as history and the lists do; a pipe and --quiet get no words', async () => {
    const did = String(vehicles[0]);
    // An hour after the clock: no report in it, so no row of any report.
    const empty = ['--from', String(CLOCK_MS / 1000 + 60), '--to', String(CLOCK_MS / 1000 + 3660)];
    const words = { trips: 'No trips found.', stops: 'No stops found.', summary: 'No reports found.', overspeed: 'No overspeed episodes found.' };
    for (const [kind, said] of Object.entries(words)) {
      const args = ['report', kind, did, ...empty, ...(kind === 'overspeed' ? ['--limit', '90'] : [])];
      const tty = await h.runIn(args, { tty: { stdout: true, stderr: true }, columns: 120 });
      assert.equal(tty.code, 0, tty.stderr);
      assert.equal(tty.stderr.trim(), said, kind);
      const piped = await h.runIn(args);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stderr, '', `${kind} into a pipe`);
      assert.equal((await h.runIn([...args, '--quiet'], { tty: { stdout: true, stderr: true } })).stderr, '', `${kind} --quiet`);
    }
    // A report with rows says nothing of the kind.
    const rows = await h.runIn(['report', 'summary', did, ...WINDOW], { tty: { stdout: true, stderr: true }, columns: 120 });
    assert.equal(rows.code, 0, rows.stderr);
    assert.doesNotMatch(rows.stderr, /found/);
  });

  test('geofence visits: a fence around a unit\'s known stop is entered and left', async () => {
    const did = vehicles[0] as number;
    const t = truths.get(did) as Truth;
    // a stop after the first day: the first may have begun before the unit's history (its arrival is then the history's start)
    const stop = t.stops.find((s) => s.arrival >= FROM + 86400 && inside(s.arrival, s.departure) && (s.departure as number) - s.arrival >= 20 * 60);
    assert.ok(stop, 'a long stop to fence');
    const d = 0.002;
    const ring = [[stop.lng - d, stop.lat - d], [stop.lng + d, stop.lat - d], [stop.lng + d, stop.lat + d], [stop.lng - d, stop.lat + d], [stop.lng - d, stop.lat - d]];
    const file = h.file('fence.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Customer' }, geometry: { type: 'Polygon', coordinates: [ring] } }] }));
    const visits = await h.json<Array<{ fence: string; enter: number; exit: number | null }>>(['report', 'geofence', '--geofence', file, String(did), '--from', String(FROM), '--to', String(TO)]);
    const v = visits.find((x) => Math.abs(x.enter - stop.arrival) <= 120);
    assert.ok(v, `a visit entering at the stop's arrival: ${JSON.stringify(visits)}`);
    assert.equal(v.fence, 'Customer');
    assert.ok(v.exit !== null && Math.abs(v.exit - (stop.departure as number)) <= 120);
  });

  test('bad input is exit 2 before any request', async () => {
    const bad = h.file('bad.geojson', '{"type":"Feature"}');
    await h.expectUsage(['report', 'summary', '2004', '--tz', 'Mars/Olympus'], 'time zone');
    await h.expectUsage(['report', 'trips', '2004', '--from', 'yesterdayish'], '--from');
    await h.expectUsage(['report', 'trips', '2004', '--from', '1d', '--to', '3d'], 'after');
    await h.expectUsage(['report', 'stops', '2004', '--min-stop', 'soon'], '--min-stop');
    await h.expectUsage(['report', 'trips', '2004', '--min-trip-distance', '-1'], '--min-trip-distance');
    await h.expectUsage(['report', 'trips', '2004', '--speed-threshold', 'fast'], '--speed-threshold');
    await h.expectUsage(['report', 'trips', '2004', '--max-gap', '0s'], '--max-gap');
    await h.expectUsage(['report', 'summary', '2004', '-o', 'gpx'], 'gpx');
    await h.expectUsage(['report', 'geofence', '2004'], '--geofence');
    await h.expectUsage(['report', 'geofence', '2004', '--geofence', bad], 'FeatureCollection');
    await h.expectUsage(['report', 'geofence', '2004', '--geofence', '/nonexistent/fences.geojson'], 'fences.geojson');
    await h.expectUsage(['report', 'trips'], 'no units selected');
  });
});


