/**
 * history over many units: selection, the merged stream against single-unit runs, --out-dir
 * partitions read back by real consumers, the fleet checkpoint under SIGKILL, a 429 storm,
 * a unit deleted mid-run, --follow with SIGINT, and bad input that sends nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';
import { runPty } from '../helpers/pty.js';
import { needPyarrow } from '../helpers/parquet.js';

interface Feature {
  properties: { did: number; date: number; reportType: string; reportValue: string; lat: number; lng: number; message: string };
}

const HOUR = 3600;
const T0 = Math.floor(Date.now() / 1000);
const DAY = 24 * HOUR;
/** An absolute --from: runs compared with each other must not take their window from two wall clocks. */
const ago = (seconds: number): string => String(T0 - seconds);
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const keyOf = (line: string): string => {
  const p = (JSON.parse(line) as Feature).properties;
  return JSON.stringify([p.did, p.date, p.reportType, p.reportValue, p.lat, p.lng, p.message]);
};

/** Every file under dir (recursively), without temporary ones. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function setFaults(h: Harness, spec: string): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec }) });
  assert.equal(res.status, 200, await res.text());
}


const KILLS = 3;

/**
 * Runs `KILLS` times, each killed with SIGKILL at a random point of its work (once the sandbox
 * got a random number of its requests, below the `requests` a whole run makes: a delay would
 * land after the end on a quick machine), then once to the end (exit 0).
 */
async function runWithKills(h: Harness, args: string[], outFile: string, seed: number, requests: number): Promise<void> {
  let rnd = seed;
  const random = (): number => ((rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let attempt = 0; attempt < KILLS; attempt++) {
    const from = h.sandbox.requests.length;
    const killAt = 1 + Math.floor(random() * (requests - 1));
    const run = spawnTo(h, args, outFile);
    const watch = setInterval(() => h.sandbox.requests.length - from >= killAt && run.kill('SIGKILL'), 2);
    const code = await run.exit;
    clearInterval(watch);
    assert.equal(code, 137, `killed after ${killAt} of ${requests} requests, not ended by itself: ${run.err()}`);
  }
  const last = spawnTo(h, args, outFile);
  assert.equal(await last.exit, 0, last.err());
}

describe('history of many units', () => {
  let h: Harness;
  let clock = T0 * 1000;
  before(async () => {
    // In-process runs; spawned ones where a process is the point (SIGKILL, SIGINT, a terminal).
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400, inProcess: true });
  });
  after(async () => {
    await h.close();
  });

  test('the merged stream holds exactly the reports of the single-unit runs, each unit in its own order', async () => {
    const ids = ['2004', '2005', '2016'];
    const merged = await h.run(['history', ...ids, '--from', ago(6 * HOUR), '-o', 'ndjson']);
    assert.equal(merged.code, 0, merged.stderr);
    const all = lines(merged.stdout);
    let total = 0;
    for (const id of ids) {
      const single = await h.run(['history', id, '--from', ago(6 * HOUR), '-o', 'ndjson']);
      assert.equal(single.code, 0, single.stderr);
      const own = lines(single.stdout);
      assert.ok(own.length > 0, `unit ${id} has reports`);
      assert.deepEqual(all.filter((l) => (JSON.parse(l) as Feature).properties.did === Number(id)), own, `unit ${id}: same reports, same order`);
      total += own.length;
    }
    assert.equal(all.length, total);
    // csv and table carry the unit too
    const csv = await h.run(['history', ...ids, '--from', ago(6 * HOUR), '-o', 'csv']);
    assert.equal(lines(csv.stdout).length, total + 1);
    assert.match(lines(csv.stdout)[0] ?? '', /\bdid\b/);
    const tsv = await h.run(['history', ...ids, '--from', ago(6 * HOUR)]);
    assert.match(lines(tsv.stdout)[0] ?? '', /^UNIT\t/);
  });

  test('--group and --category select the units the service says', async () => {
    const all = await h.json<Record<string, unknown>>(['api', '/all-units/']).catch(async () => JSON.parse((await h.run(['api', '/all-units/'])).stdout) as Record<string, unknown>);
    const users = await h.json<Array<{ did: number | null; userType: string; groupMember: number[] }>>(['users', 'list']);
    const sensors = Object.values(all.sensors as Record<string, { did: number }>).map((u) => u.did).sort();
    const inGroup = [
      ...Object.values(all.devices as Record<string, { did: number; groupMember: number[] }>),
      ...Object.values(all.sensors as Record<string, { did: number; groupMember: number[] }>),
      ...users.filter((u) => u.userType === 'trackedUser' && u.did !== null),
    ]
      .filter((u) => u.groupMember.includes(101))
      .map((u) => u.did as number)
      .sort();
    assert.ok(inGroup.length >= 3 && sensors.length >= 2);
    const didsOf = async (args: string[]): Promise<number[]> => {
      const r = await h.run(['history', ...args, '--from', ago(8 * DAY), '-o', 'ndjson']);
      assert.equal(r.code, 0, r.stderr);
      return [...new Set(lines(r.stdout).map((l) => (JSON.parse(l) as Feature).properties.did))].sort();
    };
    assert.deepEqual(await didsOf(['--group', '101']), inGroup);
    assert.deepEqual(await didsOf(['--category', 'sensor']), sensors);
    // devices: the records of deviceCategory device (a tracked user's phone is listed among the devices too)
    const devices = Object.values(all.devices as Record<string, { did: number; deviceCategory: string }>)
      .filter((u) => u.deviceCategory === 'device')
      .map((u) => u.did)
      .sort();
    assert.ok(devices.length >= 3 && devices.length < Object.keys(all.devices as object).length, 'the sandbox lists tracked users among the devices');
    assert.deepEqual(await didsOf(['--category', 'device']), devices);
    // a tracked user's unit is selected through GET /users/
    const tracked = users.filter((u) => u.userType === 'trackedUser' && u.did !== null).map((u) => u.did as number).sort();
    assert.deepEqual(await didsOf(['--category', 'trackedUser']), tracked);
  });

  test('bad selections and flags are refused before any history request', async () => {
    await h.expectUsage(['history', '2004', '2005', '--partition', 'day'], '--partition needs --out-dir');
    await h.expectUsage(['history', '2004', '2005', '--follow', '-o', 'gpx'], '--follow');
    await h.expectUsage(['history', '2004', '2005', '--follow', '-o', 'geojson'], '--follow');
    await h.expectUsage(['history', '--all-units', '2004'], 'cannot be combined');
    await h.expectUsage(['history', '--category', 'truck'], '--category');
    await h.expectUsage(['history', '--group', 'x'], 'group id');
    await h.expectUsage(['history', '2004', '2005', '--concurrency', '0'], '--concurrency');
    await h.expectUsage(['history', '2004', '2005', '--out-dir', '/proc/trackctl-cannot'], 'cannot be written');
    await h.expectUsage(['history', '2004', '2005', '--out-dir', join(h.dir, 'x'), '--partition', 'week'], '--partition');
    await h.expectUsage(['history', '2004', '2005', '--checkpoint', h.file('other.json', '{"kind":"something else"}')], 'not a trackctl history checkpoint');
    assert.ok(!existsSync(join(h.dir, 'x')) || readdirSync(join(h.dir, 'x')).length === 0, 'nothing written');
    h.sandbox.clearRequests();
    const r = await h.run(['history', '--group', '999', '-o', 'ndjson']);
    assert.equal(r.code, 4, r.stderr);
    assert.ok(!h.sent().some((s) => s.includes('/reports/history/')), 'no history request');
  });

  test('--out-dir partitions are complete files that jq, Python csv and xmllint read back', async (t) => {
    const want = await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '-o', 'ndjson']);
    const reference = new Set(lines(want.stdout).map(keyOf));
    const byDay = join(h.dir, 'by-day');
    const r = await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '--out-dir', byDay, '--partition', 'day', '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '', 'nothing on stdout');
    const files = filesUnder(byDay);
    assert.ok(files.length >= 3 && files.every((f) => /\/\d+\/\d{4}-\d{2}-\d{2}\.ndjson$/.test(f)), files.join(' '));
    const got: string[] = [];
    for (const f of files) {
      const day = f.slice(-17, -7);
      const did = Number(f.split('/').at(-2));
      for (const l of lines(readFileSync(f, 'utf8'))) {
        const p = (JSON.parse(l) as Feature).properties;
        assert.equal(p.did, did);
        assert.equal(new Date(p.date * 1000).toISOString().slice(0, 10), day, 'a report is in its UTC day');
        got.push(keyOf(l));
      }
    }
    assert.equal(got.length, reference.size);
    assert.deepEqual(new Set(got), reference);

    if (needTool(t, 'jq')) {
      const jq = spawnSync('sh', ['-c', `cat ${byDay}/*/*.ndjson | jq -s length`], { encoding: 'utf8' });
      assert.equal(Number(jq.stdout.trim()), reference.size, jq.stderr);
    }
    const csvDir = join(h.dir, 'csv');
    assert.equal((await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '--out-dir', csvDir, '-o', 'csv'])).code, 0);
    if (needTool(t, 'python3')) {
      const py = spawnSync('python3', ['-c', 'import csv,glob,sys; print(sum(1 for f in glob.glob(sys.argv[1]+"/*.csv") for r in csv.DictReader(open(f, newline=""))))', csvDir], { encoding: 'utf8' });
      assert.equal(Number(py.stdout.trim()), reference.size, py.stderr);
    }
    if (needPyarrow(t)) {
      // the day partitions in Parquet: pyarrow reads the directory as one dataset, every report once
      const pqDir = join(h.dir, 'parquet');
      assert.equal((await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '--out-dir', pqDir, '--partition', 'day', '-o', 'parquet'])).code, 0);
      assert.ok(filesUnder(pqDir).every((f) => /\/\d+\/\d{4}-\d{2}-\d{2}\.parquet$/.test(f)));
      const py = spawnSync('python3', ['-c', [
        'import glob, json, sys, pyarrow.parquet as pq',
        'keys = []',
        'for f in sorted(glob.glob(sys.argv[1] + "/*/*.parquet")):',
        '    for r in pq.read_table(f).to_pylist():',
        '        keys.append(json.dumps([r["did"], int(r["date"].timestamp()), r["reportType"], r["reportValue"]]))',
        'print(len(keys), len(set(keys)))',
      ].join('\n'), pqDir], { encoding: 'utf8' });
      assert.equal(py.status, 0, py.stderr);
      assert.equal(py.stdout.trim(), `${lines(want.stdout).length} ${new Set(lines(want.stdout).map((l) => { const p = (JSON.parse(l) as Feature).properties; return JSON.stringify([p.did, p.date, p.reportType, p.reportValue]); })).size}`);
    }
    const gpxDir = join(h.dir, 'gpx');
    assert.equal((await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '--out-dir', gpxDir, '-o', 'gpx'])).code, 0);
    if (needTool(t, 'xmllint')) {
      for (const f of filesUnder(gpxDir)) {
        const x = spawnSync('xmllint', ['--noout', f], { encoding: 'utf8' });
        assert.equal(x.status, 0, x.stderr);
      }
      // the merged gpx and kml documents: one track / folder per unit
      const gpx = await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '-o', 'gpx']);
      assert.equal(spawnSync('xmllint', ['--noout', '-'], { input: gpx.stdout }).status, 0);
      assert.equal(gpx.stdout.match(/<trk>/g)?.length, filesUnder(gpxDir).length);
      const kml = await h.run(['history', '--group', '101', '--from', ago(2 * DAY), '-o', 'kml']);
      assert.equal(spawnSync('xmllint', ['--noout', '-'], { input: kml.stdout }).status, 0);
      assert.equal(kml.stdout.match(/<Folder>/g)?.length, filesUnder(gpxDir).length);
    }
  });

  test('killed with SIGKILL at random points and run again: every report in exactly one file, and a stream loses none', async () => {
    const from = String(T0 - 12 * HOUR);
    const common = ['--all-units', '--from', from, '--concurrency', '3'];
    const refDir = join(h.dir, 'ref');
    const killedDir = join(h.dir, 'killed');
    const refCk = join(h.dir, 'ref.ckpt');
    const killedCk = join(h.dir, 'killed.ckpt');
    const streamCk = join(h.dir, 'stream.ckpt');
    const streamOut = join(h.dir, 'stream.ndjson');
    await setFaults(h, 'latency=15ms');
    try {
      for (const [step, advance] of [[1, 0], [2, 3 * HOUR]] as const) {
        clock += advance * 1000; // the frozen clock moves on: new and late reports arrive
        const before = h.sandbox.requests.length;
        const ref = await h.run([...['history', ...common], '--checkpoint', refCk, '--out-dir', refDir, '--partition', 'day', '-o', 'ndjson']);
        assert.equal(ref.code, 0, ref.stderr);
        const requests = h.sandbox.requests.length - before;
        assert.ok(requests > 10, `a run makes many requests (${requests})`);
        await runWithKills(h, ['history', ...common, '--checkpoint', killedCk, '--out-dir', killedDir, '--partition', 'day', '-o', 'ndjson'], '/dev/null', 7 * step, requests);
        await runWithKills(h, ['history', ...common, '--checkpoint', streamCk, '-o', 'ndjson'], streamOut, 11 * step, requests);
        const reference = filesUnder(refDir).flatMap((f) => lines(readFileSync(f, 'utf8')).map(keyOf));
        const killed = filesUnder(killedDir).flatMap((f) => lines(readFileSync(f, 'utf8')).map(keyOf));
        assert.ok(reference.length > 100, `step ${step}: a real amount of data (${reference.length})`);
        assert.equal(new Set(reference).size, reference.length, 'the reference has no duplicates');
        assert.equal(killed.length, new Set(killed).size, `step ${step}: no report in two files`);
        assert.deepEqual(new Set(killed), new Set(reference), `step ${step}: every report landed`);
        const streamed = new Set(lines(readFileSync(streamOut, 'utf8')).map(keyOf));
        for (const k of reference) assert.ok(streamed.has(k), `step ${step}: the stream lost ${k}`);
        assert.ok(filesUnder(killedDir).every((f) => !f.includes('.tmp')), 'no temporary file left after a successful run');
      }
      assert.ok(filesUnder(refDir).some((f) => f.includes('.part2.')), 'the second run added parts');
    } finally {
      await setFaults(h, '');
    }
  });

  test('a single-unit checkpoint file is taken over as its unit\'s entry', async () => {
    const ck = join(h.dir, 'single.ckpt');
    const first = await h.run(['history', '2004', '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(first.code, 0, first.stderr);
    // Written again as an earlier version wrote a single-unit checkpoint (version 1).
    const entry = (JSON.parse(readFileSync(ck, 'utf8')) as { units: Record<string, { lastQueryTime: number; seen: string[] }> }).units['2004'];
    assert.ok(entry);
    writeFileSync(ck, JSON.stringify({ kind: 'trackctl history checkpoint', version: 1, unit: 2004, reportTypes: null, lastQueryTime: entry.lastQueryTime, seen: entry.seen, savedAt: '' }));
    const both = await h.run(['history', '2004', '2005', '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(both.code, 0, both.stderr);
    const dids = new Set(lines(both.stdout).map((l) => (JSON.parse(l) as Feature).properties.did));
    assert.deepEqual([...dids], [2005], 'unit 2004 continues where its own checkpoint stood; 2005 starts with the window');
    const saved = JSON.parse(readFileSync(ck, 'utf8')) as { version: number; units: Record<string, unknown> };
    assert.equal(saved.version, 2);
    assert.deepEqual(Object.keys(saved.units).sort(), ['2004', '2005']);
    const again = await h.run(['history', '2004', '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, '', 'one id with a fleet checkpoint continues from it');
  });

  test('progress on a terminal: units done of total, reports and rate on stderr; nothing on a pipe', async (t) => {
    if (!needTool(t, 'tmux')) return;
    await setFaults(h, 'latency=120ms');
    try {
      const dir = join(h.dir, 'progress');
      const r = await runPty(['history', '--all-units', '--from', ago(DAY), '--concurrency', '2', '--out-dir', dir], h.env, { cols: 120 });
      assert.equal(r.code, 0, r.transcript);
      assert.match(r.transcript, /history: [\d,]+ reports, \d+\/\d+ units · [\d.,]+\/s/, 'the progress line was drawn');
      const piped = await h.run(['history', '--all-units', '--from', ago(DAY), '--concurrency', '2', '--out-dir', join(h.dir, 'progress2')]);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stderr, '', 'nothing on a pipe');
    } finally {
      await setFaults(h, '');
    }
  });

  test('a 429 storm across the pool slows it down but loses nothing', async () => {
    const ids = ['2004', '2005', '2006', '2007', '2008', '2016', '2017'];
    const clean = await h.run(['history', ...ids, '--from', ago(DAY), '-o', 'ndjson']);
    await setFaults(h, '429=0.5,retry-after=1,seed=5');
    try {
      h.sandbox.clearRequests();
      const stormy = await h.run(['history', ...ids, '--from', ago(DAY), '-o', 'ndjson', '--concurrency', '4'], { env: { TRACKCTL_RETRIES: '3' } });
      assert.equal(stormy.code, 0, stormy.stderr);
      assert.deepEqual(new Set(lines(stormy.stdout)), new Set(lines(clean.stdout)));
      assert.ok(h.sandbox.requests.filter((r) => r.path.includes('/reports/history/')).length > ids.length, 'some requests were rate-limited and repeated');
    } finally {
      await setFaults(h, '');
    }
  });

  test('a unit deleted mid-run is named on stderr, the rest complete, exit 7', async () => {
    const created = await h.json<{ did: number }>(['devices', 'create', '--name', 'Short-lived', '--tracker-id', '356938035643809', '--type', 'TT8850']);
    const token = (await h.run(['token', 'print'])).stdout.trim();
    await setFaults(h, 'latency=150ms');
    try {
      h.sandbox.clearRequests();
      const run = h.run(['history', '--category', 'device', '--from', ago(DAY), '--concurrency', '1', '-o', 'ndjson']);
      // One unit at a time in did order, the new device last: deleted once the run asked for the first unit's history.
      const end = Date.now() + 60_000;
      while (!h.sandbox.requests.some((r) => r.path.startsWith('/reports/history/'))) {
        if (Date.now() > end) throw new Error('no history request');
        await new Promise((r) => setTimeout(r, 20));
      }
      const del = await fetch(`${h.sandbox.url}/v2/devices/did/${created.did}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      assert.equal(del.status, 200, await del.text());
      const r = await run;
      assert.equal(r.code, 7, r.stderr);
      assert.match(r.stderr, new RegExp(`unit ${created.did}\\b`));
      const dids = new Set(lines(r.stdout).map((l) => (JSON.parse(l) as Feature).properties.did));
      for (const did of [2004, 2005, 2010, 2015]) assert.ok(dids.has(did), `unit ${did} completed`);
    } finally {
      await setFaults(h, '');
    }
  });

  test('--follow over many units: SIGINT flushes, saves the checkpoint and exits 0; a second run waits on the lock', async () => {
    const ck = join(h.dir, 'follow.ckpt');
    const out = join(h.dir, 'follow.ndjson');
    const run = spawnTo(h, ['history', '2004', '2005', '2016', '--follow', '--interval', '1s', '--checkpoint', ck, '-o', 'ndjson'], out);
    const end = Date.now() + 20_000;
    while (!(existsSync(ck) && Object.keys((JSON.parse(readFileSync(ck, 'utf8')) as { units: object }).units).length === 3)) {
      if (Date.now() > end) throw new Error(`the checkpoint was not saved: ${run.err()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    try {
      run.kill('SIGSTOP'); // so that every request seen next is the second run's
      h.sandbox.clearRequests();
      const second = await h.run(['history', '2004', '2005', '2016', '--checkpoint', ck, '-o', 'ndjson']);
      assert.equal(second.code, 1, second.stderr);
      assert.match(second.stderr, /in use by another trackctl/);
      assert.deepEqual(h.sent(), [], 'the second run sent nothing');
    } finally {
      run.kill('SIGCONT');
      run.kill('SIGINT');
    }
    assert.equal(await run.exit, 0, run.err());
    const dids = new Set(lines(readFileSync(out, 'utf8')).map((l) => (JSON.parse(l) as Feature).properties.did));
    assert.deepEqual([...dids].sort(), [2004, 2005, 2016]);
    // the next run continues: nothing new at a frozen clock
    const next = await h.run(['history', '2004', '2005', '2016', '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout, '');
  });
});
