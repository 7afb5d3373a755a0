/**
 * wait against the sandbox, with a frozen sandbox clock the test moves forward while the
 * wait polls: the report that met the condition checked against the same history fetched
 * with `trackctl history` and the units' own records; a silent unit that times out (exit 8)
 * no sooner than its timeout and without polling past it; --any and --all; Ctrl-C (130) and
 * SIGTERM (143, "terminated"); bad input.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, startHarness, type Harness, type RunResult } from '../helpers/cli.js';

interface Props {
  did: number;
  date: number;
  lat: number;
  lng: number;
  speed: number;
  reportType: string;
  reportValue: string;
}
interface UnitRec {
  did?: number;
  name?: string;
  lastValidLatitude?: number;
  lastValidLongitude?: number;
  lastGPSTimestamp?: number;
}
interface Met {
  did: number;
  name: string;
  condition: string;
  time: number;
  date: number | null;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  reportType: string | null;
  fence?: string;
}

const HOUR = 3600;
/** Mid-afternoon in the Americas (15:00 UTC) of the last day: vehicles are out driving. */
const LAST_AFTERNOON = Math.floor(Date.now() / 1000 / 86400) * 86400 - 9 * HOUR;
/** The wait starts at T0 and reports arrive until T1: the afternoon of the last day on which a parked device drives off in between (see before). */
let T0 = LAST_AFTERNOON;
let T1 = T0 + 2 * HOUR;
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('wait', () => {
  let h: Harness;
  let clock = T0 * 1000;
  let units = new Map<number, UnitRec>();
  /** Reports received in (T0, T1], by unit. */
  const arriving = new Map<number, Props[]>();
  let silent = 0;
  let active = 0;
  /** A device parked at T0 that drives off in (T0, T1]. */
  let departs = 0;

  /** History requests the sandbox logged for a unit. */
  const polls = (did: number): number => h.sandbox.requests.filter((r) => r.path.startsWith(`/reports/history/${did}/`)).length;

  /** Runs wait in the background; once it has polled `did` `n` times, moves the clock to `to`. */
  async function waitWhile(args: string[], did: number, n: number, to: number): Promise<RunResult> {
    h.sandbox.clearRequests();
    const run = h.run(args, { timeoutMs: 120_000 });
    const end = Date.now() + 60_000;
    while (polls(did) < n) {
      if (Date.now() > end) throw new Error(`wait did not poll unit ${did} ${n} times`);
      await sleep(20);
    }
    clock = to * 1000;
    try {
      return await run;
    } finally {
      clock = T0 * 1000;
    }
  }

  before(async () => {
    // In-process runs; spawned ones where the test signals the process.
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400, inProcess: true });
    const devices = (await h.json<UnitRec[]>(['units', '--category', 'device'])).filter((u) => u.did !== undefined);
    // The fleet's days follow the date the suite runs on, and a small fleet does not leave its depots
    // every afternoon: the sandbox's truth names the last afternoon on which a device parked at T0
    // sets off on a trip in (T0, T1] (a fix that only reads a speed may be a jump or a parked fix's
    // noise, which no wait calls moving).
    for (let day = 0; day < 14 && departs === 0; day++) {
      const t0 = LAST_AFTERNOON - day * 86400;
      const t1 = t0 + 2 * HOUR;
      clock = t1 * 1000; // the truth tells of what happened by the sandbox's now
      for (const u of devices) {
        const truth = (await (await fetch(`${h.sandbox.url}/_sandbox/truth/${u.did}?from=${t0 - HOUR}&to=${t1}`)).json()) as {
          trips: Array<{ start: number; end: number; reports: number; inSilence: boolean; distanceKm: number }>;
        };
        const parkedAtT0 = !truth.trips.some((t) => t.start <= t0 && t.end >= t0);
        const setsOff = truth.trips.some((t) => t.start > t0 && t.start < t1 - 15 * 60 && !t.inSilence && t.reports >= 3 && t.distanceKm >= 1);
        if (!parkedAtT0 || !setsOff) continue;
        // Parked by the reports too: a sleeping logger may never have sent the report of its arrival.
        clock = t0 * 1000;
        const atRest = await h.run(['wait', String(u.did), '--for', 'stopped', '--timeout', '1s']);
        clock = t1 * 1000;
        if (atRest.code === 0) {
          [T0, T1, departs] = [t0, t1, u.did!];
          break;
        }
      }
    }
    assert.ok(departs > 0, 'some device parked at T0 (by its reports too) drives off before T1, on one of the last 14 days');
    clock = T0 * 1000;
    const list = await h.json<UnitRec[]>(['units', '--category', 'device']);
    units = new Map(list.filter((u) => u.did !== undefined).map((u) => [u.did!, u]));
    clock = T1 * 1000;
    const all = await h.run(['history', '--category', 'device', '--received-after', String(T0), '-o', 'ndjson']);
    clock = T0 * 1000;
    assert.equal(all.code, 0, all.stderr);
    for (const p of lines(all.stdout).map((l) => (JSON.parse(l) as { properties: Props }).properties)) arriving.set(p.did, [...(arriving.get(p.did) ?? []), p]);
    silent = list.find((u) => u.did !== undefined && (u.lastGPSTimestamp ?? 0) > 0 && (u.lastGPSTimestamp ?? 0) < T0 - 3 * HOUR && !arriving.has(u.did))?.did ?? 0;
    assert.ok(silent > 0, 'some device has been silent for hours');
    active = list.find((u) => u.did !== undefined && (u.lastGPSTimestamp ?? 0) > T0 - HOUR && arriving.has(u.did))?.did ?? 0;
    assert.ok(active > 0, 'some device reported in the last hour and reports again');
  });
  after(async () => {
    await h.close();
  });

  test('bad input exits 2 and sends nothing', async () => {
    await h.expectUsage(['wait', '2004'], '--for');
    await h.expectUsage(['wait', '2004', '--for', 'parked'], 'parked');
    await h.expectUsage(['wait', '2004', '--for', 'stale=soon'], 'stale=soon');
    await h.expectUsage(['wait', '2004', '--for', 'battery-below=0'], 'battery-below=0');
    await h.expectUsage(['wait', '2004', '--for', `inside=${h.dir}/missing.geojson`], 'missing.geojson');
    await h.expectUsage(['wait', '2004', '2005', '--all', '--any', '--for', 'moving'], '--any');
    await h.expectUsage(['wait', '2004', '--for', 'moving', '--timeout', '0s'], '--timeout');
    await h.expectUsage(['wait', '2004', '--for', 'moving', '--interval', 'soon'], '--interval');
    await h.expectUsage(['wait', '--for', 'moving'], 'no units selected');
    await h.expectUsage(['wait', 'abc', '--for', 'moving'], 'abc');
    await h.expectUsage(['wait', '2004', '--for', 'moving', '--fields', 'nope'], 'nope');
  });

  test('reporting: met by a report that arrives during the wait, the one history shows', async () => {
    const r = await waitWhile(['wait', String(active), '--for', 'reporting', '--interval', '1s', '-o', 'json'], active, 1, T1);
    assert.equal(r.code, 0, r.stderr);
    const met = JSON.parse(r.stdout) as Met;
    assert.equal(met.did, active);
    assert.equal(met.condition, 'reporting');
    const same = (arriving.get(active) ?? []).find((p) => p.date === met.date);
    assert.ok(same, `the printed report (${met.date}) is one received after the start`);
    assert.deepEqual([met.lat, met.lng, met.speed, met.reportType], [same.lat, same.lng, same.speed, same.reportType]);
    assert.equal(met.time, met.date);
  });

  test('stopped holds at once for a parked unit; moving is met by a report that arrives during the wait', async () => {
    // The device that sets off (see before) is parked at T0: `wait --for stopped` says so at once.
    const parked = departs;
    const atRest = await h.run(['wait', String(parked), '--for', 'stopped', '--timeout', '1s', '-o', 'json']);
    assert.equal(atRest.code, 0, atRest.stderr);
    const rest = JSON.parse(atRest.stdout) as Met;
    assert.equal(rest.did, parked);
    assert.ok(rest.date !== null && rest.date <= T0 && rest.speed !== null && rest.speed <= 5, `a parked report: ${atRest.stdout}`);
    assert.equal(rest.date, units.get(parked)?.lastGPSTimestamp, 'the newest report, as GET /all-units/ dates it');
    // Two polls: its last reports before the wait, then the first round since.
    // Bounded: a wait that misses the drive is exit 8 here, not a run that never ends.
    const r = await waitWhile(['wait', String(parked), '--for', 'moving', '--interval', '1s', '--timeout', '60s', '-o', 'json'], parked, 2, T1);
    assert.equal(r.code, 0, r.stderr);
    const met = JSON.parse(r.stdout) as Met;
    const same = (arriving.get(parked) ?? []).find((p) => p.date === met.date);
    assert.ok(same, `the printed report (${met.date}) arrived during the wait`);
    assert.ok(same.speed > 5 || (same.reportType === 'motion_state' && same.reportValue === 'moving'), `a moving report: ${JSON.stringify(same)}`);
    // A parked fix that reads a speed from position noise lies within tens of metres of where the
    // unit stands (the sandbox's parked jitter): moving is a speed away from that place.
    const at = units.get(parked)!;
    const metres = (p: { lat: number; lng: number }): number =>
      Math.hypot((p.lat - at.lastValidLatitude!) * 111_320, (p.lng - at.lastValidLongitude!) * 111_320 * Math.cos((p.lat * Math.PI) / 180));
    // ... and a jump (one fix kilometres off, then back) is no move either: the sandbox's truth lists them.
    // A report dated before the wait that arrives late (a logger's buffer) tells of the past, not of now.
    const truth = (await (await fetch(`${h.sandbox.url}/_sandbox/truth/${parked}?from=${T0 - HOUR}&to=${T1}`)).json()) as { jumps: Array<{ date: number }> };
    const jumps = new Set(truth.jumps.map((j) => j.date));
    const earlier = (arriving.get(parked) ?? []).filter(
      (p) => p.date < met.date! && p.date > T0 && !jumps.has(p.date) && ((p.speed > 5 && metres(p) > 100) || p.reportValue === 'moving'),
    );
    assert.deepEqual(earlier, [], 'no earlier moving report arrived');
  });

  test('stale=D holds at once for a silent unit: met at its last report + D', async () => {
    const r = await h.run(['wait', String(silent), '--for', 'stale=2h', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const met = JSON.parse(r.stdout) as Met;
    const last = units.get(silent)!.lastGPSTimestamp!;
    assert.deepEqual([met.did, met.condition, met.date, met.time], [silent, 'stale=7200s', last, last + 2 * HOUR]);
  });

  test('a silent unit times out: exit 8, no sooner than the timeout, no polls past it', async () => {
    h.sandbox.clearRequests();
    const started = performance.now();
    const r = await h.run(['wait', String(silent), '--for', 'reporting', '--timeout', '3s', '--interval', '1s'], { timeoutMs: 60_000 });
    const elapsed = performance.now() - started;
    assert.equal(r.code, 8, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`timed out after 3s: unit ${silent} did not meet --for reporting`));
    assert.ok(elapsed >= 3000, `waited the whole timeout (${elapsed} ms)`);
    // One poll at the start and one a second after it, until the deadline: at most 4 in 3 s.
    assert.ok(polls(silent) >= 1 && polls(silent) <= 4, `${polls(silent)} polls in 3 s at 1 s`);
  });

  test('--any returns with the first unit that meets it; --all times out naming the one that did not', async () => {
    const any = await h.run(['wait', String(active), String(silent), '--any', '--for', 'stale=2h', '-o', 'json']);
    assert.equal(any.code, 0, any.stderr);
    assert.equal((JSON.parse(any.stdout) as Met).did, silent);

    const all = await h.run(['wait', String(active), String(silent), '--for', 'stale=2h', '--timeout', '2s', '--interval', '1s', '-o', 'ndjson']);
    assert.equal(all.code, 8, all.stderr);
    assert.deepEqual(lines(all.stdout).map((l) => (JSON.parse(l) as Met).did), [silent], 'the unit that met it is printed');
    assert.match(all.stderr, new RegExp(`1 of 2 units \\(${active}\\) did not meet --for stale=7200s`));
  });

  test('inside=FILE names the fence around the unit; outside=FILE of the same fence times out', async () => {
    const u = units.get(silent)!;
    const [x, y] = [u.lastValidLongitude!, u.lastValidLatitude!];
    const fence = h.file(
      'yard.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: { name: 'yard' }, geometry: { type: 'Polygon', coordinates: [[[x - 0.01, y - 0.01], [x + 0.01, y - 0.01], [x + 0.01, y + 0.01], [x - 0.01, y + 0.01], [x - 0.01, y - 0.01]]] } }],
      }),
    );
    const inside = await h.run(['wait', String(silent), '--for', `inside=${fence}`, '-o', 'json']);
    assert.equal(inside.code, 0, inside.stderr);
    assert.equal((JSON.parse(inside.stdout) as Met).fence, 'yard');
    const outside = await h.run(['wait', String(silent), '--for', `outside=${fence}`, '--timeout', '1s']);
    assert.equal(outside.code, 8, outside.stderr);
  });

  test('Ctrl-C during the wait exits 130 and prints nothing', async () => {
    h.sandbox.clearRequests();
    const child = spawn(process.execPath, [BIN, 'wait', String(silent), '--for', 'reporting', '--interval', '1s'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const end = Date.now() + 60_000;
    while (polls(silent) < 1 && Date.now() < end) await sleep(20);
    child.kill('SIGINT');
    assert.equal(await exit, 130);
    assert.equal(out, '');
  });

  test('SIGTERM during the wait exits 143, says terminated and prints nothing', async () => {
    h.sandbox.clearRequests();
    const child = spawn(process.execPath, [BIN, 'wait', String(silent), '--for', 'reporting', '--interval', '1s'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const end = Date.now() + 60_000;
    while (polls(silent) < 1 && Date.now() < end) await sleep(20);
    child.kill('SIGTERM');
    assert.equal(await exit, 143, err);
    assert.match(err, /terminated/);
    assert.doesNotMatch(err, /interrupted|Ctrl-C/);
    assert.equal(out, '');
  });
});
