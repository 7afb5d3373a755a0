/**
 * watch against the sandbox, with a frozen sandbox clock the test moves forward: the NDJSON
 * stream checked against the same history fetched with `trackctl history` (reports, sos/crash,
 * geofence crossings, battery and stale rules as properties, never exact sandbox values), each
 * event once across a Ctrl-C and restart with --checkpoint, the live view in a real
 * pseudo-terminal, bad input that sends nothing, and a start-up that loads nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, loadedDistFiles, spawnTo, startHarness, type Harness } from '../helpers/cli.js';
import { pipeToHead } from '../helpers/head.js';
import { startPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';

interface Props {
  did: number;
  date: number;
  lat: number;
  lng: number;
  speed: number;
  battery: number;
  reportType: string;
  reportValue: string;
  name: string;
}
interface Event {
  event: string;
  did: number;
  name: string;
  time: number;
  lat?: number;
  lng?: number;
  speed?: number;
  battery?: number;
  reportType?: string;
  fence?: string;
  lastReport?: number | null;
}

interface UnitRec {
  category: string;
  did?: number;
  lastValidLatitude?: number;
  lastValidLongitude?: number;
  lastGPSTimestamp?: number;
  lastBatteryLevel?: number;
}

const HOUR = 3600;
// Mid-afternoon in the Americas (15:00 UTC) of the last working day before today: vehicles are out driving (the demo
// fleet rests at weekends, so a Sunday's afternoon, the day before a Monday's run, may have no unit moving).
const T0 = ((): number => {
  const d = new Date((Math.floor(Date.now() / 1000 / 86400) * 86400 - 9 * HOUR) * 1000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() - 1);
  return d.getTime() / 1000;
})();
const T1 = T0 + 3 * HOUR;
const T2 = T1 + 3 * HOUR;
const STALE = '2h';
const LOW = 50;
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The exit code, or -1 after `ms`: a bound whose timer (unreferenced) does not keep the file's process alive once the tests are done. */
const exitWithin = (exit: Promise<number>, ms: number): Promise<number> => Promise.race([exit, new Promise<number>((r) => setTimeout(() => r(-1), ms).unref())]);


function rounds(ck: string): number {
  try {
    return (JSON.parse(readFileSync(ck, 'utf8')) as { rounds: number }).rounds;
  } catch {
    return 0;
  }
}

/** Waits until the watch saved `n` rounds in its checkpoint. */
async function untilRounds(ck: string, n: number, run: { err: () => string }): Promise<void> {
  const end = Date.now() + 60_000;
  while (rounds(ck) < n) {
    if (Date.now() > end) throw new Error(`no round ${n} in ${ck}: ${run.err()}`);
    await sleep(50);
  }
}

describe('watch', () => {
  let h: Harness;
  let clock = T0 * 1000;
  let ids: string[] = [];
  /** Every report the watch should see: received after T0, visible at T2. */
  let expected: Props[] = [];
  let fenceFile = '';
  let fenceBox: [number, number, number, number] = [0, 0, 0, 0];
  let fencedUnit = 0;
  let staleUnit = 0;
  /** GET /all-units/ at T0. */
  let start = new Map<number, UnitRec>();

  before(async () => {
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400 });
    const units = await h.json<UnitRec[]>(['units', '--category', 'device']);
    const snapshot = new Map(units.map((u) => [u.did as number, u]));
    // What the service will have received between T0 and T2 (history is a function of time).
    clock = T2 * 1000;
    const all = await h.run(['history', '--category', 'device', '--received-after', String(T0), '-o', 'ndjson']);
    clock = T0 * 1000;
    assert.equal(all.code, 0, all.stderr);
    const reports = lines(all.stdout).map((l) => (JSON.parse(l) as { properties: Props }).properties);
    const byUnit = new Map<number, Props[]>();
    for (const p of reports) byUnit.set(p.did, [...(byUnit.get(p.did) ?? []), p]);
    // Units with an sos or crash in the window first, then the busiest; three of them.
    const alerting = (did: number): boolean => (byUnit.get(did) ?? []).some((p) => p.reportType === 'sos' || p.reportType === 'crash');
    const chosen = [...byUnit.keys()].sort((a, b) => Number(alerting(b)) - Number(alerting(a)) || (byUnit.get(b)?.length ?? 0) - (byUnit.get(a)?.length ?? 0)).slice(0, 3);
    assert.ok(chosen.some(alerting), 'some device sends an sos or crash in six hours');
    // And a unit silent since before T0 (the sandbox has some): stale at the first round.
    staleUnit = units.find((u) => u.did !== undefined && (u.lastGPSTimestamp ?? 0) > 0 && (u.lastGPSTimestamp ?? 0) < T0 - 3 * HOUR && !byUnit.has(u.did))?.did ?? 0;
    assert.ok(staleUnit > 0, 'some device has been silent for hours');
    // And a unit low on battery at T0 (the sandbox has some), unless one is chosen already.
    const low = (did: number): boolean => (snapshot.get(did)?.lastBatteryLevel ?? 100) < LOW && (snapshot.get(did)?.lastGPSTimestamp ?? 0) > 0;
    const lowUnit = chosen.find(low) ?? units.find((u) => u.did !== undefined && u.did !== staleUnit && low(u.did))?.did;
    assert.ok(lowUnit !== undefined, 'some device is low on battery');
    start = snapshot;
    ids = [...new Set([...chosen, staleUnit, lowUnit])].sort((a, b) => a - b).map(String);
    expected = reports.filter((p) => ids.includes(String(p.did)));
    // A small fence around a chosen unit's newest position, away from where it stood at T0.
    for (const did of chosen) {
      const newest = [...(byUnit.get(did) ?? [])].sort((a, b) => b.date - a.date)[0];
      const at = snapshot.get(did);
      if (!newest || !at) continue;
      if (Math.abs(newest.lat - (at.lastValidLatitude ?? 0)) + Math.abs(newest.lng - (at.lastValidLongitude ?? 0)) < 0.005) continue;
      fencedUnit = did;
      fenceBox = [newest.lng - 0.0005, newest.lat - 0.0005, newest.lng + 0.0005, newest.lat + 0.0005];
      break;
    }
    assert.ok(fencedUnit > 0, 'a chosen unit moved between T0 and T2');
    const [x0, y0, x1, y1] = fenceBox;
    fenceFile = h.file(
      'fence.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: { name: 'spot' }, geometry: { type: 'Polygon', coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]] } }],
      }),
    );
  });
  after(async () => {
    await h.close();
  });

  test('bad input exits 2 and sends nothing', async () => {
    const bad = h.file('bad.geojson', '{"type":"Feature"}');
    const notJson = h.file('ck', 'not json');
    await h.expectUsage(['watch', '--interval', '0s'], '--interval');
    await h.expectUsage(['watch', '--interval', 'soon'], '--interval');
    await h.expectUsage(['watch', '--stale', 'x'], '--stale');
    await h.expectUsage(['watch', '--low-battery', '0'], '--low-battery');
    await h.expectUsage(['watch', '--low-battery', '101'], '--low-battery');
    await h.expectUsage(['watch', '--geofence', join(h.dir, 'missing.geojson')], 'missing.geojson');
    await h.expectUsage(['watch', '--geofence', bad], 'FeatureCollection');
    await h.expectUsage(['watch', '-o', 'csv'], 'csv');
    await h.expectUsage(['watch', '--raw'], '--raw');
    await h.expectUsage(['watch', '2004', '--group', '101'], 'cannot be combined');
    await h.expectUsage(['watch', '--group', 'x'], 'group id');
    await h.expectUsage(['watch', 'abc'], 'abc');
    await h.expectUsage(['watch', '--category', 'boat'], 'boat');
    await h.expectUsage(['watch', '--checkpoint', notJson], 'not usable');
  });

  test('watch --help loads no HTTP, keychain or sandbox code, and shows examples', () => {
    const r = spawnSync(process.execPath, [BIN, 'watch', '--help'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_DEBUG: 'trackctl', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Examples:[\s\S]*trackctl watch/);
    assert.match(r.stdout, /--low-battery <pct>/);
    const loaded = loadedDistFiles(r.stderr);
    assert.ok(loaded.length > 0);
    for (const file of loaded) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      assert.ok(!/llhttp|EnvHttpProxyAgent|@napi-rs\/keyring|Reports have been successfully retrieved\./.test(text), `${file} holds heavy code`);
      assert.ok(!text.includes('trackctl watch checkpoint'), `${file}: the watch code itself waits until watch runs`);
    }
  });

  test('completion: the flags, -o values, categories and file names', () => {
    const complete = (...words: string[]): string[] =>
      lines(spawnSync(process.execPath, [BIN, '__complete', '--', ...words], { env: { PATH: process.env.PATH, HOME: process.env.HOME, TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl' }, encoding: 'utf8' }).stdout).map((l) => l.split('\t')[0] ?? '');
    for (const flag of ['--interval', '--stale', '--low-battery', '--geofence', '--checkpoint', '--group', '--category', '--all-units']) {
      assert.ok(complete('watch', '--').includes(flag), flag);
    }
    assert.deepEqual(complete('watch', '-o', ''), ['table', 'ndjson', 'json']);
    assert.deepEqual(complete('watch', '--category', ''), ['device', 'sensor', 'trackedUser']);
    assert.deepEqual(complete('watch', '--geofence', ''), [':files']);
    assert.deepEqual(complete('watch', '--checkpoint', ''), [':files']);
  });

  // Early in the file: the polls it holds are answered 20 s later, while the tests after it
  // run, rather than keeping the file's process alive at its end.
  test('piped without -o: NDJSON; a second Ctrl-C exits 130', async () => {
    const out = join(h.dir, 'twice.ndjson');
    const faults = (spec: string): Promise<Response> =>
      fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec }) });
    const polled = async (why: string, end: number): Promise<void> => {
      while (!h.sent().some((r) => r.includes('/reports/history/'))) {
        if (Date.now() > end) throw new Error(`${why}: ${twice.err()}`);
        await sleep(20);
      }
    };
    h.sandbox.clearRequests();
    const twice = spawnTo(h, ['watch', ...ids, '--interval', '1s'], out);
    try {
      const end = Date.now() + 60_000;
      // The start (sign-in, selection, /all-units/) and the first poll go at full speed; only the
      // polls after it are held: the sandbox logs a request and draws its fault in one step, so
      // every poll logged after the spec was set and the log cleared takes 20 s (longer than any
      // delay of a loaded machine), and a Ctrl-C then finds one in flight.
      await polled('no poll', end);
      assert.equal((await faults('latency=20s')).status, 200);
      h.sandbox.clearRequests();
      await polled('no poll after the latency was set', end);
      twice.kill('SIGINT');
      // Two signals sent close together can arrive as one on a busy machine: the second goes
      // only once the first was taken (its message is on stderr).
      while (!/Stopping after the request in flight/.test(twice.err())) {
        if (Date.now() > end) throw new Error(`the first Ctrl-C was not taken: ${twice.err()}`);
        await sleep(20);
      }
      twice.kill('SIGINT');
      assert.equal(await twice.exit, 130, twice.err());
      // "Ctrl-C again to quit at once": the held polls are abandoned, not waited for (their
      // replies are 20 s away; the sandbox sets a request's status when it answers).
      const held = h.sandbox.requests.filter((r) => r.path.includes('/reports/history/'));
      assert.ok(held.length > 0 && held.every((r) => r.status === 0), `the process ended before the replies: ${JSON.stringify(held)}`);
    } finally {
      twice.kill('SIGKILL');
      await faults('');
    }
    const ck = join(h.dir, 'plain.ckpt');
    const run = spawnTo(h, ['watch', ...ids, '--interval', '1s', '--checkpoint', ck], join(h.dir, 'plain.ndjson'));
    await untilRounds(ck, 1, run);
    run.kill('SIGINT');
    assert.equal(await run.exit, 0, run.err());
    const got = lines(readFileSync(join(h.dir, 'plain.ndjson'), 'utf8'));
    for (const l of got) assert.ok(typeof (JSON.parse(l) as Event).event === 'string');
    assert.ok(existsSync(ck));
  });

  test('the event stream matches the history, and Ctrl-C and a restart with --checkpoint write each event once', async (t) => {
    const args = ['watch', ...ids, '--interval', '1s', '--stale', STALE, '--low-battery', String(LOW), '--geofence', fenceFile, '-o', 'ndjson'];
    const ckA = join(h.dir, 'a.ckpt');
    const ckB = join(h.dir, 'b.ckpt');
    const outA = join(h.dir, 'a.ndjson');
    const outB = join(h.dir, 'b.ndjson');
    // A runs throughout; B is stopped with Ctrl-C at T0 and started again at T1.
    const a = spawnTo(h, [...args, '--checkpoint', ckA], outA);
    const b1 = spawnTo(h, [...args, '--checkpoint', ckB], outB);
    let b2: ReturnType<typeof spawnTo> | undefined;
    try {
      await untilRounds(ckA, 2, a);
      await untilRounds(ckB, 1, b1);
      b1.kill('SIGINT');
      assert.equal(await b1.exit, 0, b1.err());
      const afterB1 = lines(readFileSync(outB, 'utf8'));
      assert.ok(afterB1.length > 0, 'the first round wrote its events before exiting');

      clock = T1 * 1000;
      await untilRounds(ckA, rounds(ckA) + 2, a);
      b2 = spawnTo(h, [...args, '--checkpoint', ckB], outB);
      await untilRounds(ckB, rounds(ckB) + 2, b2);

      clock = T2 * 1000;
      await untilRounds(ckA, rounds(ckA) + 2, a);
      await untilRounds(ckB, rounds(ckB) + 2, b2);
      a.kill('SIGINT');
      b2.kill('SIGINT');
      assert.equal(await a.exit, 0, a.err());
      assert.equal(await b2.exit, 0, b2.err());
    } finally {
      a.kill('SIGKILL');
      b1.kill('SIGKILL');
      b2?.kill('SIGKILL');
      clock = T0 * 1000;
    }

    const textA = lines(readFileSync(outA, 'utf8'));
    const textB = lines(readFileSync(outB, 'utf8'));
    assert.equal(new Set(textA).size, textA.length, 'no event twice');
    assert.deepEqual([...textB].sort(), [...textA].sort(), 'stopped and restarted: the same events as one run');
    const events = textA.map((l) => JSON.parse(l) as Event);
    const tally = new Map<string, number>();
    for (const e of events) tally.set(e.event, (tally.get(e.event) ?? 0) + 1);
    t.diagnostic(`units ${ids.join(' ')}: ${[...tally].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const key = (did: number, time: number, lat?: number, lng?: number, type?: string): string => JSON.stringify([did, time, lat, lng, type]);

    // report: exactly the reports received after T0.
    const reports = events.filter((e) => e.event === 'report');
    assert.ok(reports.length > 0);
    assert.deepEqual(reports.map((e) => key(e.did, e.time, e.lat, e.lng, e.reportType)).sort(), expected.map((p) => key(p.did, p.date, p.lat, p.lng, p.reportType)).sort());
    const reportAt = new Map(expected.map((p) => [`${p.did}/${p.date}`, p]));

    // sos and crash: one per such report.
    for (const kind of ['sos', 'crash']) {
      assert.deepEqual(
        events.filter((e) => e.event === kind).map((e) => key(e.did, e.time)).sort(),
        expected.filter((p) => p.reportType === kind).map((p) => key(p.did, p.date)).sort(),
        kind,
      );
    }
    assert.ok(events.some((e) => e.event === 'sos' || e.event === 'crash'));

    // moving / stopped: told by a report of that unit at that time which says so.
    for (const e of events.filter((x) => x.event === 'moving' || x.event === 'stopped')) {
      const p = reportAt.get(`${e.did}/${e.time}`);
      assert.ok(p, `${e.event} of ${e.did} at ${e.time} is a report's date`);
      const says = p.reportType === 'motion_state' ? p.reportValue : p.speed > 5 ? 'moving' : 'stopped';
      assert.equal(says, e.event, `${e.event} of ${e.did} at ${e.time}`);
    }
    // Alternating per unit.
    for (const did of ids.map(Number)) {
      const seq = events.filter((e) => e.did === did && (e.event === 'moving' || e.event === 'stopped')).map((e) => e.event);
      for (let i = 1; i < seq.length; i++) assert.notEqual(seq[i], seq[i - 1], `unit ${did}: ${seq.join(',')}`);
    }

    // battery_low: below the threshold, at a report (or at the start: the unit's last report before T0).
    for (const e of events.filter((x) => x.event === 'battery_low')) {
      assert.ok((e.battery ?? 100) < LOW, `battery ${e.battery}`);
      const p = reportAt.get(`${e.did}/${e.time}`);
      if (p) assert.equal(p.battery, e.battery);
      else assert.ok(e.time <= T0, 'a battery_low that is no report of the window is the starting state');
    }
    const lowReports = expected.filter((p) => p.battery < LOW);
    if (lowReports.length > 0) assert.ok(events.some((e) => e.event === 'battery_low'), 'a unit below the threshold is told');

    // stale: dated 2 h after the unit's last report (one of the window's, or its last before T0), by T2.
    for (const e of events.filter((x) => x.event === 'stale')) {
      assert.equal(typeof e.lastReport, 'number');
      assert.equal(e.time, (e.lastReport as number) + 2 * HOUR);
      assert.ok(e.time <= T2);
      if ((e.lastReport as number) > T0) assert.ok(reportAt.has(`${e.did}/${e.lastReport}`), 'stale counts from a report');
      else assert.equal(e.lastReport, start.get(e.did)?.lastGPSTimestamp);
    }
    const silent = start.get(staleUnit)?.lastGPSTimestamp as number;
    assert.deepEqual(
      events.filter((e) => e.did === staleUnit).map((e) => [e.event, e.time, e.lastReport ?? null]).filter(([ev]) => ev === 'stale'),
      [['stale', silent + 2 * HOUR, silent]],
      'the silent unit is stale once',
    );
    // A unit low at T0 is told once at the start, dated at its last report.
    assert.ok(ids.some((did) => (start.get(Number(did))?.lastBatteryLevel ?? 100) < LOW), 'a unit starts low');
    for (const did of ids.map(Number)) {
      const at = start.get(did);
      if (at?.lastBatteryLevel === undefined || at.lastBatteryLevel >= LOW) continue;
      const first = events.filter((e) => e.did === did && e.event === 'battery_low')[0];
      assert.deepEqual([first?.time, first?.battery], [at.lastGPSTimestamp, at.lastBatteryLevel], `unit ${did} starts low`);
    }

    // geofence: enter and exit alternate, each at a report inside / outside the fence; the fenced unit enters.
    const [x0, y0, x1, y1] = fenceBox;
    const inside = (p: Props): boolean => p.lng >= x0 && p.lng <= x1 && p.lat >= y0 && p.lat <= y1;
    const crossings = events.filter((e) => e.event === 'geofence_enter' || e.event === 'geofence_exit');
    assert.ok(crossings.some((e) => e.event === 'geofence_enter' && e.did === fencedUnit && e.fence === 'spot'), 'the unit enters the fence');
    for (const did of ids.map(Number)) {
      const seq = crossings.filter((e) => e.did === did);
      seq.forEach((e, i) => {
        assert.equal(e.event, i % 2 === 0 ? 'geofence_enter' : 'geofence_exit', `unit ${did}: enter, exit, enter…`);
        const p = reportAt.get(`${e.did}/${e.time}`);
        assert.ok(p, 'a crossing is at a report');
        assert.equal(inside(p), e.event === 'geofence_enter');
      });
    }
    // Every event names its unit and time.
    for (const e of events) {
      assert.ok(ids.includes(String(e.did)) && typeof e.name === 'string' && e.name !== '' && Number.isInteger(e.time), JSON.stringify(e));
    }
  });

  test('a 429 storm loses and repeats no report', async () => {
    const ck = join(h.dir, 'storm.ckpt');
    const out = join(h.dir, 'storm.ndjson');
    const setFaults = async (spec: string): Promise<void> => {
      const res = await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec }) });
      assert.equal(res.status, 200, await res.text());
    };
    const run = spawnTo(h, ['watch', ...ids, '--interval', '1s', '--retries', '2', '--checkpoint', ck, '-o', 'ndjson'], out);
    try {
      await untilRounds(ck, 1, run);
      await setFaults('429=0.3,retry-after=1');
      clock = T2 * 1000;
      await untilRounds(ck, rounds(ck) + 3, run);
      await setFaults('');
      await untilRounds(ck, rounds(ck) + 2, run);
      run.kill('SIGINT');
      assert.equal(await run.exit, 0, run.err());
    } finally {
      run.kill('SIGKILL');
      await setFaults('');
      clock = T0 * 1000;
    }
    assert.ok(h.sandbox.requests.some((r) => r.fault === 'rate-limit'), 'the storm happened');
    const events = lines(readFileSync(out, 'utf8')).map((l) => JSON.parse(l) as Event);
    const key = (did: number, time: number, type?: string, lat?: number, lng?: number): string => JSON.stringify([did, time, type, lat, lng]);
    assert.deepEqual(
      events.filter((e) => e.event === 'report').map((e) => key(e.did, e.time, e.reportType, e.lat, e.lng)).sort(),
      expected.map((p) => key(p.did, p.date, p.reportType, p.lat, p.lng)).sort(),
    );
    assert.deepEqual(
      events.filter((e) => e.event === 'sos' || e.event === 'crash').map((e) => key(e.did, e.time, e.event)).sort(),
      expected.filter((p) => p.reportType === 'sos' || p.reportType === 'crash').map((p) => key(p.did, p.date, p.reportType)).sort(),
    );
  });

  test('a checkpoint made on a pipe and stopped before a round was saved: the next run starts from the state the first had', async () => {
    const args = ['watch', ...ids, '--interval', '1s', '--stale', STALE, '--low-battery', String(LOW), '-o', 'ndjson'];
    const [ckA, ckB, outA, outB] = ['pa.ckpt', 'pb.ckpt', 'pa.ndjson', 'pb.ndjson'].map((f) => join(h.dir, f)) as [string, string, string, string];
    const historyPolls = (): number => h.sandbox.requests.filter((r) => r.path.startsWith('/reports/history/')).length;
    let a: ReturnType<typeof spawnTo> | undefined;
    let b: ReturnType<typeof spawnTo> | undefined;
    try {
      // B's first run writes to a pipe: its rounds are not saved (too little was read after them),
      // so its checkpoint holds what the units' starting points were made with, then Ctrl-C.
      h.sandbox.clearRequests();
      b = spawnTo(h, [...args, '--checkpoint', ckB], outB, { pipe: true });
      const started = Date.now();
      while (historyPolls() < 2 * ids.length) {
        assert.ok(Date.now() - started < 60_000, `B's first round: ${b.err()}`);
        await sleep(50);
      }
      // Ctrl-C: the round in flight is finished and written, then the run ends.
      b.kill('SIGINT');
      assert.equal(await b.exit, 0, b.err());
      // A runs throughout from the same start (the sandbox's clock stands at T0).
      a = spawnTo(h, [...args, '--checkpoint', ckA], outA);
      await untilRounds(ckA, 2, a);
      clock = T1 * 1000;
      await untilRounds(ckA, rounds(ckA) + 2, a);
      b = spawnTo(h, [...args, '--checkpoint', ckB], outB);
      await untilRounds(ckB, rounds(ckB) + 2, b);
      clock = T2 * 1000;
      await untilRounds(ckA, rounds(ckA) + 2, a);
      await untilRounds(ckB, rounds(ckB) + 2, b);
      a.kill('SIGINT');
      b.kill('SIGINT');
      assert.equal(await a.exit, 0, a.err());
      assert.equal(await b.exit, 0, b.err());
    } finally {
      a?.kill('SIGKILL');
      b?.kill('SIGKILL');
      clock = T0 * 1000;
    }
    // What a pipe's reader may not have read is written again (documented); no event is made up, none lost.
    const textA = lines(readFileSync(outA, 'utf8'));
    const textB = lines(readFileSync(outB, 'utf8'));
    assert.ok(textA.length > 0);
    assert.deepEqual([...new Set(textB)].sort(), [...new Set(textA)].sort());
  });

  test('watch | head -n 1: the watch ends once the reader has gone and it writes again', async () => {
    const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" watch ${ids.join(' ')} --interval 1s -o ndjson | head -n 1`], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so the watch itself can be killed if it hangs
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    try {
      const end = Date.now() + 30_000;
      while (out === '') {
        if (Date.now() > end) throw new Error('no first event');
        await sleep(50);
      }
      clock = T1 * 1000; // new reports: the next write meets the closed pipe
      const code = await exitWithin(exit, 30_000);
      assert.equal(code, 0, `the pipeline ended: ${err.split("\n").filter((l) => !l.startsWith(">") && !l.startsWith("< {")).slice(-40).join("\n")}`);
    } finally {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
      clock = T0 * 1000;
    }
    assert.equal(lines(out).length, 1);
    assert.ok(typeof (JSON.parse(out) as Event).event === 'string');
  });

  test('watch --checkpoint | head -n 20: the watch fails at its next write, saves nothing unread, and the next run delivers every report', async () => {
    const ck = join(h.dir, 'head20.ckpt');
    const out = join(h.dir, 'head20.ndjson');
    // Later rounds (state events such as `stopped` come with the service clock even while no report
    // arrives) may be taken by the pipe before head leaves: they prove nothing (runs/delivery.ts).
    const args = ['watch', ...ids, '--interval', '1s', '--checkpoint', ck, '-o', 'ndjson'];
    const first = pipeToHead(h, args, 20);
    let second: ReturnType<typeof spawnTo> | undefined;
    try {
      await untilRounds(ck, 1, first);
      clock = T2 * 1000; // the next round brings every report of the window: more than head reads
      assert.equal(await first.headExit, 0);
      clock = (T2 + HOUR) * 1000; // new reports: the next write meets the closed pipe
      const code = await exitWithin(first.exit, 60_000);
      assert.equal(code, 141, `the watch fails quietly, as one killed by SIGPIPE: ${first.err()}`);
      assert.doesNotMatch(first.err(), /error|EPIPE/);
      assert.equal(lines(first.out()).length, 20);

      second = spawnTo(h, args, out);
      await untilRounds(ck, rounds(ck) + 2, second);
      second.kill('SIGINT');
      assert.equal(await second.exit, 0, second.err());
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGKILL');
      clock = T0 * 1000;
    }
    const key = (did: number, time: number, type?: string, lat?: number, lng?: number): string => JSON.stringify([did, time, type, lat, lng]);
    const events = [...lines(first.out()), ...lines(readFileSync(out, 'utf8'))].map((l) => JSON.parse(l) as Event);
    const got = new Set(events.filter((e) => e.event === 'report').map((e) => key(e.did, e.time, e.reportType, e.lat, e.lng)));
    const missing = expected.filter((p) => !got.has(key(p.did, p.date, p.reportType, p.lat, p.lng)));
    assert.equal(missing.length, 0, `${missing.length} of ${expected.length} reports never arrived`);
  });

  test('on a terminal: a live view drawn in place, Ctrl-C exits 0 and gives the screen back', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const pty = await startPty(['watch', ...ids, '--interval', '1s', '--stale', STALE, '--tz', 'Asia/Tokyo'], h.env, { cols: 90, rows: 16 });
    try {
      let screen = await pty.waitFor(/UNIT\s+NAME\s+STATE/, 30_000);
      for (const id of ids) assert.match(screen, new RegExp(`^\\s*${id}\\s`, 'm'), `unit ${id} is drawn`);
      assert.match(screen, /trackctl watch: units/);
      const rows = screen.split('\n');
      assert.ok(rows.every((r) => r.length <= 90), 'fits the width');
      assert.equal(rows.filter((r) => /UNIT\s+NAME/.test(r)).length, 1, 'one header: drawn in place, not scrolled');
      // At the frozen T0 no report arrives, yet every unit has a state: read from its last report's
      // age, as units -o html reads it; the status line tells when the fleet was polled.
      // The poll's time is on the zone's clock, the zone named (the machine's clock is UTC, Tokyo's 9 h ahead).
      screen = await pty.waitFor(/last poll \d\d:\d\d:\d\d Asia\/Tokyo · next in \d+ s/, 30_000);
      const pollHour = Number(/last poll (\d\d):/.exec(screen)?.[1]);
      const local = new Date(Date.now() + 9 * HOUR * 1000).getUTCHours();
      assert.ok([local, (local + 23) % 24].includes(pollHour), `Tokyo hour ${local}, shown ${pollHour}`);
      for (const id of ids) assert.match(screen, new RegExp(`^\\s*${id}\\s+.*?\\s(moving|stopped|stale|SOS|CRASH)\\s`, 'm'), `unit ${id} has a state at the start`);
      // A unit's state and SPEED are its last reports' (speed above 5 km/h: moving), not its age's guess.
      let told = 0;
      for (const id of ids) {
        const before = (await h.json<Array<{ properties: { date: number; speed?: number; reportType: string; reportValue?: string } }>>(['history', String(id), '--from', String(T0 - 2 * HOUR), '--to', String(T0)]))
          .map((f) => f.properties)
          .sort((a, b) => a.date - b.date);
        const last = before.at(-1);
        const row = screen.split('\n').find((r) => new RegExp(`^\\s*${id}\\s`).test(r));
        if (last === undefined || typeof last.speed !== 'number' || /stale|SOS|CRASH/.test(row ?? '')) continue;
        // What the reports of the 3 minutes up to the last one say: a motion_state report, else the speed
        // (above 5 km/h at the last report: moving; at most 5 throughout: stopped; else in between).
        const recent = before.filter((r) => r.date >= last.date - 180);
        const motion = recent.filter((r) => r.reportType === 'motion_state').at(-1)?.reportValue;
        const slow = recent.every((r) => (r.speed ?? 0) <= 5);
        const expected = motion ?? (last.speed > 5 ? 'moving' : slow ? 'stopped' : undefined);
        if (expected === undefined) continue;
        const [, , state, , speed] = (row ?? '').trim().split(/\s{2,}/);
        assert.deepEqual([state, speed], [expected, String(Math.round(last.speed))], `unit ${id}: ${row}`);
        told += 1;
      }
      assert.ok(told > 0, `some unit reported just before the start:\n${screen}`);
      // Once the clock moves and reports arrive, the rows change in place (ages aside: those move with the clock).
      const rowsOf = (text: string): string => text.split('\n').filter((r) => new RegExp(`^\\s*(${ids.join('|')})\\s`).test(r)).map((r) => r.replace(/just now|\d+ (s|min|h|d) ago/, '')).join('\n');
      const atStart = rowsOf(screen);
      clock = T1 * 1000;
      const end = Date.now() + 30_000;
      while (rowsOf((screen = await pty.screen())) === atStart) {
        assert.ok(Date.now() < end, `the rows never changed:\n${screen}`);
        await sleep(200);
      }
      assert.equal(screen.split('\n').filter((r) => /UNIT\s+NAME/.test(r)).length, 1);
      await pty.keys('C-c');
      assert.equal(await pty.exitCode(), 0);
      await sleep(200);
      const restored = await pty.screen();
      assert.doesNotMatch(restored, /UNIT\s+NAME/, 'the alternate screen is gone');
      const transcript = pty.transcript();
      assert.ok(transcript.includes('\x1b[?1049h') && transcript.includes('\x1b[?1049l'), 'alternate screen entered and left');
      assert.ok(transcript.includes('\x1b[?25h'), 'cursor shown again');
      assert.ok((transcript.match(/\x1b\[H/g) ?? []).length >= 2, 'redrawn from the top left');
    } finally {
      clock = T0 * 1000;
      await pty.close();
    }
  });

  test('on a narrow terminal the view still fits', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const pty = await startPty(['watch', ...ids, '--interval', '1s'], h.env, { cols: 44, rows: 12 });
    try {
      const screen = await pty.waitFor(/UNIT\s+NAME/, 30_000);
      assert.ok(screen.split('\n').every((r) => r.length <= 44), screen);
      for (const id of ids) assert.match(screen, new RegExp(`^\\s*${id}\\s`, 'm'));
      await pty.keys('C-c');
      assert.equal(await pty.exitCode(), 0);
    } finally {
      await pty.close();
    }
  });

  test('SIGTERM stops after the round in flight, saves, says terminated and exits 143', async () => {
    const ck = join(h.dir, 'terminated.ckpt');
    const run = spawnTo(h, ['watch', ...ids, '--interval', '1s', '--checkpoint', ck], join(h.dir, 'terminated.ndjson'));
    try {
      await untilRounds(ck, 1, run);
      run.kill('SIGTERM');
      assert.equal(await run.exit, 143, run.err());
    } finally {
      run.kill('SIGKILL');
    }
    assert.match(run.err(), /terminated/i);
    assert.doesNotMatch(run.err(), /Ctrl-C again/);
    assert.equal(existsSync(`${ck}.lock`), false, 'the lock is released');
  });
});
