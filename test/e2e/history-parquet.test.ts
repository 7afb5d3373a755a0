/**
 * history -o parquet: the real binary against the real sandbox; pyarrow reads back exactly
 * the reports the NDJSON output of the same query has (every row, every column, the types);
 * a large export comes in several row groups with flat memory; bad combinations are exit 2
 * before any request; --output-file puts a file in place only when whole.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, loadedDistFiles, startHarness, type Harness } from '../helpers/cli.js';
import { needPyarrow, readParquet } from '../helpers/parquet.js';
import { runPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';

const T0 = 1_795_000_000; // a frozen clock (seconds)
const BENCH_UNIT = 900_000_001;
const BENCH_REPORTS = 240_000;
const TYPES = {
  aid: 'int64', did: 'int64', name: 'string', availability: 'string', lat: 'double', lng: 'double', alt: 'double', speed: 'double',
  heading: 'double', source: 'string', address: 'string', date: 'timestamp[ms, tz=UTC]', battery: 'double', odometer: 'double',
  precision: 'double', satellites: 'int32', temperature: 'double', reportType: 'string', reportValue: 'string', message: 'string', extra: 'string',
};

/** Runs the binary with stdout sent to `file` (as `> file` does); returns the exit code, stderr and peak RSS in MB. */
function runToFile(h: Harness, args: string[], file: string, nodeArgs: string[] = []): Promise<{ code: number; stderr: string; rssMB: number }> {
  const preload = join(h.dir, 'maxrss.cjs');
  if (!existsSync(preload)) {
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`maxrss=${process.resourceUsage().maxRSS}\\n`));\n");
  }
  const fd = openSync(file, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--require', preload, BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env, TRACKCTL_TIMEOUT: '300s' },
      stdio: ['ignore', fd, 'pipe'],
    });
    closeSync(fd);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const kb = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN);
      resolve({ code: code ?? 1, stderr: stderr.replace(/maxrss=\d+\n/, ''), rssMB: kb / 1024 });
    });
  });
}

describe('history -o parquet', () => {
  let h: Harness;
  let did: number;
  let sensor: number;
  before(async () => {
    h = await startHarness({ now: () => T0 * 1000, sessionTtl: 30 * 86400, benchReports: BENCH_REPORTS });
    const devices = await h.json<Array<{ did: number }>>(['devices', 'list']);
    did = (devices[0] as { did: number }).did;
    const sensors = await h.json<Array<{ did: number }>>(['sensors', 'list']);
    sensor = (sensors[0] as { did: number }).did;
  });
  after(async () => {
    await h.close();
  });

  test('> FILE and --output-file: pyarrow reads back exactly the NDJSON reports, typed (a device and a sensor)', async (t) => {
    if (!needPyarrow(t)) return;
    const window = ['--from', String(T0 - 7 * 86400), '--to', String(T0)];
    const seen = { nullTemperature: false, temperature: false, nullAddress: false };
    for (const unit of [did, sensor]) {
      const ndjson = join(h.dir, `${unit}.ndjson`);
      const nd = await runToFile(h, ['history', String(unit), ...window, '-o', 'ndjson'], ndjson);
      assert.equal(nd.code, 0, nd.stderr);
      const lines = readFileSync(ndjson, 'utf8').split('\n').filter((l) => l !== '');
      assert.ok(lines.length > 500, `${lines.length} reports: a week of history`);
      seen.nullTemperature ||= lines.some((l) => l.includes('"temperature":null'));
      seen.temperature ||= lines.some((l) => /"temperature":-?\d/.test(l));
      seen.nullAddress ||= lines.some((l) => l.includes('"address":null'));

      const redirected = join(h.dir, `${unit}.parquet`);
      const pq = await runToFile(h, ['history', String(unit), ...window, '-o', 'parquet'], redirected);
      assert.equal(pq.code, 0, pq.stderr);
      const viaFlag = join(h.dir, `${unit}-flag.parquet`);
      const r = await h.run(['history', String(unit), ...window, '-o', 'parquet', '--output-file', viaFlag]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '', 'nothing on stdout with --output-file');
      assert.deepEqual(readFileSync(viaFlag), readFileSync(redirected), 'the same bytes either way');
      assert.equal(readdirSync(h.dir).filter((f) => f.endsWith('.tmp')).length, 0, 'no temporary file left');

      const read = readParquet(redirected, { ndjson });
      assert.deepEqual(read.mismatches, []);
      assert.equal(read.compared, lines.length);
      assert.equal(read.numRows, lines.length);
      assert.deepEqual(Object.fromEntries(read.schema), TYPES);
      assert.match(read.createdBy, /^trackctl \d/);
    }
    assert.deepEqual(seen, { nullTemperature: true, temperature: true, nullAddress: true }, 'nulls and values both occur');
  });

  test(`a large export (bench unit, >100k reports) is written in row groups with flat memory`, async (t) => {
    if (!needPyarrow(t)) return;
    // The bench unit's reports are dated one second apart, ending at the epoch (T0).
    const half = join(h.dir, 'half.parquet');
    const halfNdjson = join(h.dir, 'half.ndjson');
    const window = ['--from', String(T0 - BENCH_REPORTS / 2 - 1)]; // reports dated after --from
    const small = await runToFile(h, ['history', String(BENCH_UNIT), ...window, '-o', 'parquet'], half);
    assert.equal(small.code, 0, small.stderr);
    const nd = await runToFile(h, ['history', String(BENCH_UNIT), ...window, '-o', 'ndjson'], halfNdjson);
    assert.equal(nd.code, 0, nd.stderr);
    const read = readParquet(half, { ndjson: halfNdjson });
    assert.deepEqual(read.mismatches, []);
    assert.equal(read.compared, BENCH_REPORTS / 2);
    assert.deepEqual(read.rowGroups, [50_000, 50_000, 20_000]);

    // Memory is bounded by one row group, not by the export: with a 64 MB heap the whole export
    // goes through (holding its 240,000 reports at once needs several times that and aborts).
    const whole = join(h.dir, 'whole.parquet');
    const big = await runToFile(h, ['history', String(BENCH_UNIT), '--all', '-o', 'parquet'], whole, ['--max-old-space-size=64']);
    assert.equal(big.code, 0, big.stderr.slice(-2000));
    const all = readParquet(whole);
    assert.equal(all.numRows, BENCH_REPORTS);
    assert.deepEqual(all.rowGroups, [50_000, 50_000, 50_000, 50_000, 40_000]);
    t.diagnostic(`peak RSS: ${small.rssMB.toFixed(0)} MB for ${BENCH_REPORTS / 2} reports, ${big.rssMB.toFixed(0)} MB for ${BENCH_REPORTS} (64 MB heap)`);
    // Memory is proven flat by the 64 MB heap above; RSS is measured in bench/parquet.mjs, not asserted (it differs by Node line).
  });

  test('refused before any request: --follow, --raw, --fields, an unwritable --output-file', async () => {
    await h.expectUsage(['history', String(did), '-o', 'parquet', '--follow'], '--follow');
    await h.expectUsage(['history', String(did), '-o', 'parquet', '--raw'], '--raw');
    await h.expectUsage(['history', String(did), '-o', 'parquet', '--fields', 'date,lat'], '--fields');
    await h.expectUsage(['history', String(did), '-o', 'parquet', '--output-file', join(h.dir, 'no-such-dir', 'x.parquet')], 'no-such-dir');
    await h.expectUsage(['history', String(did), '-o', 'ndjson', '--follow', '--output-file', join(h.dir, 'f.ndjson')], '--output-file');
    assert.equal(existsSync(join(h.dir, 'f.ndjson')), false);
  });

  test('refused on a terminal (exit 2, before any request), with a hint', async (t) => {
    if (!needTool(t, 'tmux')) return;
    h.sandbox.clearRequests();
    const r = await runPty(['history', String(did), '-o', 'parquet'], h.env, { cols: 200 });
    assert.equal(r.code, 2, r.screen);
    assert.match(r.screen, /not to a terminal: redirect stdout \(> reports\.parquet\) or use --output-file FILE/);
    assert.deepEqual(h.sent(), []);
  });

  test('--output-file (any format) leaves the old file untouched when the run fails, and replaces it when whole', async () => {
    const file = join(h.dir, 'kept.ndjson');
    writeFileSync(file, 'old\n');
    const failed = await h.run(['history', '999999', '--all', '-o', 'ndjson', '--output-file', file]);
    assert.equal(failed.code, 4, failed.stderr);
    assert.equal(readFileSync(file, 'utf8'), 'old\n');
    assert.equal(readdirSync(h.dir).filter((f) => f.endsWith('.tmp')).length, 0, 'the temporary file is removed');
    const window = ['--from', String(T0 - 86400), '--to', String(T0)];
    const ok = await h.run(['history', String(did), ...window, '-o', 'ndjson', '--output-file', file]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, '');
    const piped = await h.run(['history', String(did), ...window, '-o', 'ndjson']);
    assert.ok(piped.stdout.length > 1000);
    assert.equal(readFileSync(file, 'utf8'), piped.stdout);
  });

  test('-o parquet: a reply cut off mid-body is exit 6, the old --output-file untouched, no temporary file left', async () => {
    const file = join(h.dir, 'kept.parquet');
    writeFileSync(file, 'old\n');
    const faults = (spec: string) => fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec }) });
    await faults('truncate=1');
    try {
      const r = await h.run(['history', String(BENCH_UNIT), '--all', '-o', 'parquet', '--output-file', file]);
      assert.equal(r.code, 6, r.stderr);
      assert.match(r.stderr, /dropped|failed/);
    } finally {
      await faults('');
    }
    assert.equal(readFileSync(file, 'utf8'), 'old\n');
    assert.equal(readdirSync(h.dir).filter((f) => f.endsWith('.tmp')).length, 0, 'the temporary file is removed');
  });

  test('--output-file: Ctrl-C (SIGINT) mid-export removes the temporary file and leaves no FILE', async () => {
    const dir = join(h.dir, 'interrupted');
    mkdirSync(dir);
    const file = join(dir, 'big.parquet');
    const child = spawn(process.execPath, [BIN, 'history', String(BENCH_UNIT), '--all', '-o', 'parquet', '--output-file', file], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 20_000;
    while (readdirSync(dir).length === 0) {
      assert.ok(Date.now() < deadline, 'the temporary file appears');
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(readdirSync(dir)[0] as string, /^big\.parquet\.\d+-[0-9a-f]+\.tmp$/);
    child.kill('SIGINT');
    const { code, signal } = await exited;
    assert.ok(signal === 'SIGINT' || code === 130, `ended by the interrupt (code ${code}, signal ${signal})`);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('several units: --out-dir writes one Parquet file per unit, the merged stream one file; each reads back as its NDJSON', async (t) => {
    if (!needPyarrow(t)) return;
    const window = ['--from', String(T0 - 2 * 86400), '--to', String(T0)];
    const dir = join(h.dir, 'fleet-out');
    const r = await h.run(['history', String(did), String(sensor), ...window, '-o', 'parquet', '--out-dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(dir).sort(), [`${did}.parquet`, `${sensor}.parquet`].sort());
    let total = 0;
    for (const unit of [did, sensor]) {
      const ndjson = join(h.dir, `fleet-${unit}.ndjson`);
      const nd = await runToFile(h, ['history', String(unit), ...window, '-o', 'ndjson'], ndjson);
      assert.equal(nd.code, 0, nd.stderr);
      const read = readParquet(join(dir, `${unit}.parquet`), { ndjson });
      assert.deepEqual(read.mismatches, []);
      assert.ok((read.compared ?? 0) > 100);
      total += read.numRows;
    }
    const merged = join(h.dir, 'merged.parquet');
    const m = await runToFile(h, ['history', String(did), String(sensor), ...window, '-o', 'parquet'], merged);
    assert.equal(m.code, 0, m.stderr);
    const rows = readParquet(merged, { rows: true }).rows ?? [];
    assert.equal(rows.length, total);
    assert.deepEqual([...new Set(rows.map((row) => row.did))].sort(), [did, sensor].sort());
    // A checkpointed Parquet stream of several units: saved only once the file was written whole.
    const ck = join(h.dir, 'f.ckpt');
    const saved = await h.run(['history', String(did), String(sensor), '-o', 'parquet', '--checkpoint', ck]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual(Object.keys((JSON.parse(readFileSync(ck, 'utf8')) as { units: object }).units).sort(), [String(did), String(sensor)].sort());
    await h.expectUsage(['history', String(did), String(sensor), '-o', 'ndjson', '--output-file', join(h.dir, 'x.ndjson')], '--output-file');
  });

  test('hyparquet-writer is loaded only for -o parquet', async () => {
    const marker = /thrift non-monotonic field id/; // hyparquet-writer's Thrift, which writes the page headers and footer
    const chunksLoaded = async (format: string): Promise<string[]> => {
      const out = join(h.dir, `lazy.${format}`);
      const r = await h.run(['history', String(did), '--from', String(T0 - 3600), '-o', format, '--output-file', out], { env: { NODE_DEBUG: 'trackctl' } });
      assert.equal(r.code, 0, r.stderr.slice(-500));
      return loadedDistFiles(r.stderr).filter((f) => marker.test(readFileSync(join(ROOT, f), 'utf8')));
    };
    assert.equal((await chunksLoaded('ndjson')).length, 0, 'ndjson loads no parquet code');
    assert.ok((await chunksLoaded('parquet')).length > 0, 'parquet loads it (so the check above means something)');
  });
});
