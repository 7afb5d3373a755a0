// Benchmark: fleet-wide history. Not part of npm test.
//  1. Incremental poll of N units (default 300 generated units, plus the demo fleet) that each received
//     new reports since the last checkpoint: `trackctl history --all-units --checkpoint F -o ndjson`
//     against the loop a user writes without it (`for id in …; do trackctl history "$id" --checkpoint
//     "$id.ckpt" -o ndjson; done`). Rounds are paired: the clock moves 30 minutes, then the poll and the
//     loop each deliver that half hour; the ratio (loop time / poll time) is the median of the rounds'
//     ratios, against the goal of 100x. With --baseline REF, that ref's build polls too, in each round
//     (order rotating, its own checkpoint), and its ratio is to the same loop. REF may also be the
//     directory of a tree already built (its bin/trackctl.js and dist/): it is used as it is, not rebuilt.
//  2. Scaling: the poll of N, 1,000 and 10,000 units (--scale), each its own sandbox: median wall and
//     CPU seconds, per unit; the sandbox's CPU (it answers in this process: it must not be what limits
//     the poll); peak RSS, and per unit above a poll of one unit in the same sandbox (the fixed cost:
//     start-up, sign-in). Time and memory per unit constant = linear in units.
//  3. Full export of M units (default 10,000) × one day into --out-dir, in ndjson and in parquet:
//     time, files, bytes, peak RSS.
// Every part reads an in-process sandbox whose clock the bench moves. On a loaded machine the wall
// clock mostly measures waiting for a core; CPU seconds still compare the work.
// Needs: npm run build, GNU time (/usr/bin/time) for peak RSS and CPU.
// Usage: node bench/fleet.mjs [units-for-poll] [units-for-export] [--rounds N] [--scale 1000,10000] [--baseline REF]
//   e.g. node bench/fleet.mjs 300 0 --baseline main   (units 0: skip that part; --scale none: skip the scaling)
//        node bench/fleet.mjs 300 0 --scale none --baseline /work/wt/base   (a built tree)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRef, cliLogin, measure, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' }, scale: { type: 'string', default: '1000,10000' }, baseline: { type: 'string' } },
});
const { startSandbox } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const POLL_UNITS = Number(positionals[0] ?? 300); // 0: skip the poll
const EXPORT_UNITS = Number(positionals[1] ?? 10000); // 0: skip the export
const ROUNDS = Number(flags.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`--rounds must be a whole number, got ${flags.rounds}`);
const SCALE = flags.scale === 'none' ? [] : flags.scale.split(',').map(Number);
if (SCALE.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--scale: units, comma-separated (or none), got ${flags.scale}`);
const GOAL = 100;
const NODE = process.execPath;
const fmt = (n, d = 1) => n.toFixed(d);
const num = (n) => n.toLocaleString('en-US');
const work = mkdtempSync(join(tmpdir(), 'trackctl-bench-fleet-'));

function filesUnder(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const countLines = (file) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length;

async function withSandbox(units, fn) {
  let clock = Date.UTC(2026, 10, 24, 12); // a working day, frozen; the bench moves it
  const sandbox = await startSandbox({ port: 0, devices: units, quiet: true, sessionTtl: 30 * 86400, now: () => clock });
  const dir = mkdtempSync(join(work, 'run-'));
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
    TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
    TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_RETRIES: '2', TRACKCTL_TIMEOUT: '600s',
  };
  try {
    await cliLogin(BIN, env);
    await fn({ env, dir, advance: (ms) => (clock += ms), clockMs: () => clock, sandbox });
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The ids GET /all-units/ lists (devices and sensors: the units a user's loop knows of). */
function listedIds(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, 'api', '/all-units/'], { env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error('all-units failed'));
      const all = JSON.parse(out);
      resolve([...Object.keys(all.devices), ...Object.keys(all.sensors)]);
    });
  });
}

/** A poll measured: wall, the CLI's CPU and peak RSS (GNU time), the sandbox's CPU, and the units it asked for. */
async function timedPoll(cmd, env, sandbox) {
  sandbox.clearRequests();
  const before = process.cpuUsage();
  const r = await measure(cmd, env);
  const used = process.cpuUsage(before);
  const units = new Set(sandbox.requests.filter((q) => q.path.startsWith('/reports/history/')).map((q) => q.path.split('/')[3])).size;
  return { ...r, sandboxCpu: (used.user + used.system) / 1e6, units };
}

/** The commands of one sandbox: the fleet poll of a build (its own checkpoint), the loop, the one-unit poll. */
function commands(dir, clockMs, ids) {
  const from = `--from ${Math.floor(clockMs() / 1000) - 3600}`; // one absolute window: every command delivers the same reports
  writeFileSync(join(dir, 'ids'), ids.join('\n'));
  mkdirSync(join(dir, 'ck'), { recursive: true });
  return {
    fleet: (bin, name, out = '/dev/null') => `"${NODE}" "${bin}" history --all-units ${from} --checkpoint ${join(dir, `${name}.ckpt`)} -o ndjson > ${out}`,
    loop: (out = '/dev/null') =>
      `for id in $(cat ${join(dir, 'ids')}); do "${NODE}" "${BIN}" history "$id" ${from} --checkpoint ${join(dir, 'ck')}/$id.ckpt -o ndjson || exit 1; done > ${out}`,
    one: () => `"${NODE}" "${BIN}" history ${ids[0]} ${from} --checkpoint ${join(dir, 'one.ckpt')} -o ndjson > /dev/null`,
  };
}

const scaling = [];

/** --baseline: a tree already built (a directory with bin/trackctl.js and dist/) as it is, else a git ref built beside this one. */
function baselineBuild(ref) {
  const bin = join(ref, 'bin/trackctl.js');
  if (existsSync(bin) && existsSync(join(ref, 'dist/main.js'))) return { name: `baseline ${ref}`, bin };
  return buildRef(root, ref, join(work, 'baseline'));
}

/**
 * Polls of one sandbox: a first (unmeasured) run, then ROUNDS rounds of new reports, each into a
 * file as a user keeps it; `perRound` runs the other sides of a round. Returns the scaling row.
 */
async function scalingRow(units, { env, dir, advance, clockMs, sandbox }, perRound) {
  const ids = await listedIds(env);
  const cmd = commands(dir, clockMs, ids);
  const out = join(dir, 'poll.ndjson');
  await perRound?.first(cmd, ids);
  await measure(cmd.fleet(BIN, 'poll'), env);
  await measure(cmd.one(), env);
  const polls = [];
  const ones = [];
  for (let r = 0; r < ROUNDS; r++) {
    advance(30 * 60 * 1000); // every unit reports within 30 minutes
    polls.push({ ...(await timedPoll(cmd.fleet(BIN, 'poll', out), env, sandbox)), reports: countLines(out) });
    rmSync(out);
    ones.push(await measure(cmd.one(), env));
    await perRound?.round(r, cmd, polls.at(-1));
  }
  return { units, polls, ones };
}

function printScaling() {
  if (scaling.length === 0) return;
  console.log(`\n== scaling of the poll (median of ${ROUNDS} polls each; per unit: of the whole poll, and in brackets above the fixed cost of a one-unit poll)`);
  console.log('   units  reports   wall s  ms/unit   CLI CPU s  CPU ms/unit     sandbox CPU ms/unit  peak RSS  KB/unit above one unit');
  for (const { polls, ones } of scaling.sort((a, b) => a.units - b.units)) {
    const n = median(polls.map((p) => p.units));
    const wall = median(polls.map((p) => p.seconds));
    const cpu = median(polls.map((p) => p.cpu ?? NaN));
    const oneCpu = median(ones.map((p) => p.cpu ?? NaN));
    const rss = Math.max(...polls.map((p) => p.rssMB ?? NaN));
    const oneRss = Math.max(...ones.map((p) => p.rssMB ?? NaN));
    console.log(
      `  ${num(n).padStart(6)}  ${num(median(polls.map((p) => p.reports))).padStart(7)}  ${fmt(wall, 2).padStart(7)}  ${fmt((wall * 1000) / n, 2).padStart(7)}` +
        `   ${fmt(cpu, 2).padStart(9)}  ${fmt((cpu * 1000) / n, 2).padStart(5)} (${fmt(((cpu - oneCpu) * 1000) / (n - 1), 2)})` +
        `  ${fmt((median(polls.map((p) => p.sandboxCpu)) * 1000) / n, 2).padStart(17)}   ${fmt(rss, 0).padStart(4)} MB  ${fmt(((rss - oneRss) * 1024) / (n - 1), 1).padStart(6)} (one unit: ${fmt(oneRss, 0)} MB)`,
    );
  }
  console.log(`  (units: those the poll asked for, tracked users' included; load average ${fmt(loadavg()[0])} on ${availableParallelism()} cores, ${cpus()[0]?.model ?? 'unknown CPU'})`);
}

// 1. Incremental poll against the loop, paired by round (the poll first, then the loop; a baseline before or after the loop, by turns)
if (POLL_UNITS > 0) await withSandbox(POLL_UNITS, async (box) => {
  const { env, dir } = box;
  const builds = flags.baseline ? [baselineBuild(flags.baseline)] : [];
  const rounds = [];
  const loopOut = join(dir, 'loop.ndjson');
  const row = await scalingRow(POLL_UNITS, box, {
    first: async (cmd, ids) => {
      console.log(`\n== incremental poll of ${num(ids.length)} units (devices and sensors; the poll also has the tracked users' units), ${ROUNDS} rounds`);
      // not measured: every side starts from the same window
      for (const b of builds) await measure(cmd.fleet(b.bin, 'baseline'), env);
      await measure(cmd.loop(), env);
    },
    round: async (r, cmd, poll) => {
      const others = [];
      const baselines = async () => {
        for (const b of builds) others.push({ name: b.name, ...(await measure(cmd.fleet(b.bin, 'baseline'), env)) });
      };
      if (r % 2 === 1) await baselines();
      const loop = await measure(cmd.loop(loopOut), env);
      if (r % 2 === 0) await baselines();
      rounds.push({ poll, loop, others, reports: countLines(loopOut) });
      rmSync(loopOut);
    },
  });
  scaling.push(row);
  for (const [i, { poll, loop, others, reports }] of rounds.entries()) {
    const extra = others.map((o) => `; ${o.name} ${fmt(o.seconds, 2)} s: ${fmt(loop.seconds / o.seconds, 1)}x`).join('');
    console.log(
      `  round ${i + 1}: poll ${fmt(poll.seconds, 2)} s (CPU ${fmt(poll.cpu ?? NaN, 2)} s, ${num(poll.reports)} new reports), loop ${fmt(loop.seconds, 1)} s (CPU ${fmt(loop.cpu ?? NaN, 1)} s, ${num(reports)} new reports): ${fmt(loop.seconds / poll.seconds, 1)}x${extra}`,
    );
  }
  const ratio = median(rounds.map((r) => r.loop.seconds / r.poll.seconds));
  console.log(`  poll ratio (loop time / poll time, median of ${ROUNDS} paired rounds): ${fmt(ratio, 1)}x against the goal of ${GOAL}x: ${ratio >= GOAL ? 'met' : 'NOT met'}`);
  // On a loaded machine the wall clock mostly measures waiting for a core; the CPU the CLI used compares the work.
  const cpuRatio = (r, side) => (r.loop.cpu ?? NaN) / (side.cpu ?? NaN);
  console.log(`  CPU ratio (loop CPU / poll CPU, median of ${ROUNDS}): ${fmt(median(rounds.map((r) => cpuRatio(r, r.poll))), 1)}x (load average ${fmt(loadavg()[0])})`);
  for (const b of builds) {
    const other = (r) => r.others.find((o) => o.name === b.name);
    console.log(`  ${b.name}: ${fmt(median(rounds.map((r) => r.loop.seconds / other(r).seconds)), 1)}x; CPU ${fmt(median(rounds.map((r) => cpuRatio(r, other(r)))), 1)}x`);
  }
});

// 2. Scaling
for (const n of SCALE) {
  if (n === POLL_UNITS) continue;
  await withSandbox(n, async (box) => scaling.push(await scalingRow(n, box)));
}
printScaling();

// 3. Full export into --out-dir
if (EXPORT_UNITS > 0) await withSandbox(EXPORT_UNITS, async ({ env, dir }) => {
  console.log(`\n== full export of ${num(EXPORT_UNITS)} generated units (plus the demo fleet) × one day into --out-dir`);
  for (const format of ['ndjson', 'parquet']) {
    const out = join(dir, `out-${format}`);
    let r;
    try {
      r = await measure(`"${NODE}" "${BIN}" history --all-units --from 2026-11-23T12:00:00Z --to 2026-11-24T12:00:00Z --out-dir ${out} -o ${format} --concurrency 16`, env);
    } catch (err) {
      console.log(`  ${format}: failed: ${String(err.message).split('\n').slice(-3).join(' ')}`);
      continue;
    }
    const files = filesUnder(out);
    const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
    console.log(`  ${format.padEnd(8)} ${fmt(r.seconds, 1).padStart(7)} s  ${num(files.length).padStart(7)} files  ${fmt(bytes / 1e6).padStart(8)} MB  peak RSS ${r.rssMB === undefined ? 'n/a' : `${fmt(r.rssMB, 0)} MB`}`);
  }
});
rmSync(work, { recursive: true, force: true });
