/** history: formats parsed back, segments as sent, validation, --follow with SIGINT, --checkpoint across late arrivals and failures. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { BIN, startHarness, type Harness } from '../helpers/cli.js';
import { hasTool, inCI } from '../helpers/tools.js';

interface Feature {
  type: 'Feature';
  properties: { did: number; date: number; reportType: string; reportValue: string; lat: number; lng: number; name: string };
  geometry: { type: 'Point'; coordinates: [number, number] };
}

const T0 = Math.floor(Date.now() / 1000);
const HOUR = 3600;
const keyOf = (f: Feature): string => `${f.properties.date}|${f.properties.reportType}|${f.properties.reportValue}|${f.properties.lat}`;
const ndjson = (text: string): Feature[] => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Feature);

function xmlWellFormed(xml: string): void {
  if (!hasTool('xmllint')) {
    if (inCI()) throw new Error('xmllint is required in CI but is not installed (see .ci/run)');
    return;
  }
  const r = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** The binary, spawned directly so the test can signal it; stdout accumulates. */
function spawnCli(h: Harness, args: string[]): { child: ChildProcessWithoutNullStreams; out: () => string; err: () => string; exit: Promise<number> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : 128))));
  return { child, out: () => out, err: () => err, exit };
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('history', () => {
  let h: Harness;
  let did: number;
  let clock = T0 * 1000;
  before(async () => {
    // In-process runs; spawned ones (spawnCli) where the test signals the process.
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400, benchReports: 30_000, inProcess: true });
    const devices = await h.json<Array<{ did: number; name: string }>>(['devices', 'list']);
    did = (devices[0] as { did: number }).did;
  });
  after(async () => {
    await h.close();
  });
  const setClock = (seconds: number): void => {
    clock = seconds * 1000;
    h.sandbox.setNow(clock);
  };
  const paths = (): string[] => h.sandbox.requests.map((r) => r.path);

  test('every format parses back to the same reports, from one request with the window as sent', async () => {
    const window = ['--from', String(T0 - 12 * HOUR), '--to', String(T0)];
    h.sandbox.clearRequests();
    const json = await h.json<Feature[]>(['history', String(did), ...window]);
    assert.deepEqual(paths(), [`/reports/history/${did}/from:${T0 - 12 * HOUR}/to:${T0}/`]);
    assert.equal(h.sandbox.requests[0]?.auth.cookie, true, 'unversioned endpoint: the session cookie');
    assert.ok(json.length > 20, `${json.length} reports`);
    assert.ok(json.every((f) => f.type === 'Feature' && f.properties.did === did && f.properties.date > T0 - 12 * HOUR && f.properties.date <= T0));
    const run = async (format: string): Promise<string> => {
      const r = await h.run(['history', String(did), ...window, '-o', format]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    assert.deepEqual(ndjson(await run('ndjson')), json);
    const geo = JSON.parse(await run('geojson')) as { type: string; features: Feature[] };
    assert.equal(geo.type, 'FeatureCollection');
    assert.deepEqual(geo.features, json);
    // -o yaml: the shared renderer (src/io/formats/render/yaml.ts) fails in the bundle ("yaml.stringify is not a function"); reported.
    const rows = parseCsv(await run('csv'), { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((r) => Number(r.date)), json.map((f) => f.properties.date));
    assert.deepEqual(rows.map((r) => r.reportType), json.map((f) => f.properties.reportType));
    const table = (await run('table')).trimEnd().split('\n');
    assert.match(table[0] as string, /^DATE\tTYPE\tLAT\tLNG\tSPEED\tBATTERY\tADDRESS\tMESSAGE$/);
    assert.equal(table.length, json.length + 1);
    const gpx = await run('gpx');
    xmlWellFormed(gpx);
    assert.equal(gpx.match(/<trkpt /g)?.length, json.length);
    assert.match(gpx, new RegExp(`<trk><name>${(json[0] as Feature).properties.name}</name>`));
    const kml = await run('kml');
    xmlWellFormed(kml);
    assert.equal(kml.match(/<Placemark>/g)?.length, json.length + 1);
    assert.match(kml, /<LineString>/);
    const flat = await h.run(['history', String(did), ...window, '-o', 'ndjson', '--fields', 'date,lat']);
    assert.deepEqual(
      flat.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown),
      json.map((f) => ({ date: f.properties.date, lat: f.properties.lat })),
    );
  });

  test('segments go in the documented order; --all sends none; the default is the last 24 hours', async () => {
    h.sandbox.clearRequests();
    let r = await h.run(['history', String(did), '--types', 'sos,report', '--received-after', String(T0 - HOUR), '--to', String(T0), '--from', String(T0 - 2 * HOUR), '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(ndjson(r.stdout).every((f) => ['sos', 'report'].includes(f.properties.reportType)));
    r = await h.run(['history', String(did), '--all', '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(ndjson(r.stdout).length > 500, 'a week of history');
    const before = Math.floor(Date.now() / 1000);
    r = await h.run(['history', String(did), '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const [withAll, all, dflt] = paths();
    assert.equal(withAll, `/reports/history/${did}/from:${T0 - 2 * HOUR}/to:${T0}/lastQueryTime:${T0 - HOUR}/reportTypes:sos,report/`);
    assert.equal(all, `/reports/history/${did}/`);
    const from = Number(/from:(\d+)\/$/.exec(dflt ?? '')?.[1]);
    assert.ok(Math.abs(from - (before - 86400)) < 30, `default from ${from}`);
  });

  test('bad input exits 2 and sends nothing; an unknown unit exits 4', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['history', '0'], /unit id/],
      [['history', 'abc'], /unit id/],
      [['history', '1', '--to', 'now'], /--to needs --from/],
      [['history', '1', '--from', 'now', '--to', '2h ago'], /after --to/],
      [['history', '1', '--types', 'sos,bogus'], /unknown report type "bogus"; valid types: report, /],
      [['history', '1', '--from', 'last tuesday'], /invalid --from/],
      [['history', '1', '--all', '--from', '1h'], /--all cannot/],
      [['history', '1', '-o', 'shapefile'], /unknown output format "shapefile"; use one of: table, json, ndjson, csv, yaml, geojson, gpx, kml/],
      [['history', '1', '--follow', '--interval', 'soon'], /invalid duration/],
    ];
    for (const [args, message] of cases) {
      h.sandbox.clearRequests();
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.deepEqual(paths(), [], `nothing sent for ${args.join(' ')}`);
    }
    const r = await h.run(['history', '987654', '--all']);
    assert.equal(r.code, 4, r.stderr);
  });

  test('a reply cut off mid-body is a network failure (exit 6); a 502 page exits 1', async () => {
    await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'truncate=1' }) });
    let r = await h.run(['history', String(did), '--all', '-o', 'ndjson']);
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /dropped|failed/);
    await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'html=1' }) });
    r = await h.run(['history', String(did), '--all', '-o', 'ndjson']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /502/);
    await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: '' }) });
  });

  test('--follow prints new and late reports once as the clock moves, and exits 0 on SIGINT', async () => {
    setClock(T0);
    const from = T0 - 6 * HOUR; // a parked unit reports only every 10–30 minutes
    const p = spawnCli(h, ['history', String(did), '--follow', '--interval', '1s', '--from', String(from), '-o', 'ndjson']);
    try {
      await until('the first reply', () => p.out().split('\n').length > 5);
      for (let step = 1; step <= 4; step++) {
        const polls = h.sandbox.requests.length;
        setClock(T0 + step * 2 * HOUR);
        await until('two more polls', () => h.sandbox.requests.length >= polls + 2);
      }
      const polls = h.sandbox.requests.length;
      await until('a poll that printed nothing new', () => h.sandbox.requests.length >= polls + 1);
      p.child.kill('SIGINT');
      assert.equal(await p.exit, 0, p.err());
    } finally {
      p.child.kill('SIGKILL');
    }
    const printed = ndjson(p.out());
    const keys = printed.map(keyOf);
    assert.equal(new Set(keys).size, keys.length, 'no report printed twice');
    const now = await h.run(['history', String(did), '--all', '-o', 'ndjson']);
    const expected = ndjson(now.stdout).filter((f) => f.properties.date > from).map(keyOf);
    const got = new Set(keys);
    assert.deepEqual(expected.filter((k) => !got.has(k)), [], 'every report dated in the window, late ones included');
    const extra = printed.filter((f) => f.properties.date <= from);
    assert.ok(extra.every((f) => f.properties.date > from - 7 * HOUR), 'extras are late arrivals received while following');
    const polled = h.sandbox.requests.filter((r) => r.path.includes('lastQueryTime:'));
    assert.ok(polled.length >= 8, 'polls carry lastQueryTime');
  });

  test('--checkpoint: runs over late arrivals and failed runs deliver every report exactly once', async () => {
    setClock(T0 + 10 * HOUR);
    const file = join(h.dir, 'unit.ckpt');
    const outputs: Feature[][] = [];
    const clocks: number[] = [];
    const runOnce = async (extra: string[] = []): Promise<number> => {
      const r = await h.run(['history', String(did), '--checkpoint', file, '-o', 'ndjson', ...extra]);
      if (r.code === 0) {
        outputs.push(ndjson(r.stdout));
        clocks.push(clock / 1000);
      }
      return r.code;
    };
    assert.equal(await runOnce(['--all']), 0);
    const steps = [0.25, 1, 0.5, 3, 2, 6, 0.1, 4];
    let t = T0 + 10 * HOUR;
    for (const [i, step] of steps.entries()) {
      t += Math.round(step * HOUR);
      setClock(t);
      if (i === 3) {
        const saved = readFileSync(file, 'utf8');
        await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'truncate=1' }) });
        assert.equal(await runOnce(), 6, 'a reply cut off: the run fails');
        await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: '' }) });
        assert.equal(readFileSync(file, 'utf8'), saved, 'a failed run does not move the checkpoint');
      }
      assert.equal(await runOnce(), 0);
    }
    const union = outputs.flat().map(keyOf);
    assert.equal(new Set(union).size, union.length, 'no report printed twice');
    const all = ndjson((await h.run(['history', String(did), '--all', '-o', 'ndjson'])).stdout).map(keyOf);
    assert.deepEqual([...union].sort(), [...all].sort(), 'the union is every report received by the last run');
    const late = outputs.slice(1).flatMap((o, i) => o.filter((f) => f.properties.date <= (clocks[i] as number)));
    assert.ok(late.length > 0, 'some reports dated before a run arrived only after it, and came in a later run');
    const r = await h.run(['history', String(did), '--checkpoint', file, '--types', 'sos']);
    assert.equal(r.code, 2, 'a checkpoint belongs to one unit and filter');
  });

  test('--checkpoint: a run killed mid-output saves nothing, and the next run delivers everything once', async () => {
    const { BENCH_UNIT_ID } = await import('../../src/sandbox/index.js');
    const file = join(h.dir, 'bench.ckpt');
    const p = spawnCli(h, ['history', String(BENCH_UNIT_ID), '--all', '--checkpoint', file, '-o', 'ndjson']);
    await until('some output', () => p.out().length > 100_000);
    p.child.kill('SIGKILL');
    await p.exit;
    // The first run fixes its window in the file before anything is sent, and saves no unit.
    assert.deepEqual((JSON.parse(readFileSync(file, 'utf8')) as { units: object }).units, {}, 'no unit saved by a killed run');
    const r = await h.run(['history', String(BENCH_UNIT_ID), '--all', '--checkpoint', file, '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 30_000);
    assert.equal(new Set(lines).size, 30_000);
    assert.ok(existsSync(file));
    const again = await h.run(['history', String(BENCH_UNIT_ID), '--checkpoint', file, '-o', 'ndjson']);
    assert.equal(again.stdout, '', 'nothing new');
  });
});
