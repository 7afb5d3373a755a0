// Benchmark: `trackctl history <bench unit> --all -o ndjson` against `curl -s -o /dev/null` on the
// same live sandbox reply (the sandbox runs in this process), in the same run: bytes/s of each,
// their ratio, and trackctl's peak RSS. Optionally a baseline build of another git ref, measured
// interleaved with this tree's build, and `curl | jq -c '.features[]'`. Not part of npm test.
// Output goes to /dev/null and to a pipe (`| cat > /dev/null`). Beside them, the floor: the same body copied to
// /dev/null by undici alone (as trackctl reads it) and by Node's own HTTP client (bench/read-body.mjs). Each figure is the median of the
// repetitions; the ratio is the median of each repetition's ratio (trackctl MB/s / curl MB/s),
// which rides out the machine's load better than a ratio of medians. Peak RSS is the largest seen.
// CPU is user + system seconds of the command (sh, trackctl and cat): on a loaded machine the wall
// clock mostly measures waiting for a core, while CPU seconds still compare the builds' work.
// Needs: npm run build (dist/), curl, GNU time (/usr/bin/time; apt-get install time); jq for --jq.
// Usage: node bench/history.mjs [sizes...] [--runs N] [--baseline GIT-REF] [--to null|pipe|both] [--jq]
//   e.g. node bench/history.mjs 300000 --runs 7 --baseline main
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRef, cliLogin, measure, median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    baseline: { type: 'string' },
    to: { type: 'string', default: 'both' },
    jq: { type: 'boolean', default: false },
  },
});
const RUNS = Number(flags.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a whole number, got ${flags.runs}`);
if (!['null', 'pipe', 'both'].includes(flags.to)) throw new Error(`--to must be null, pipe or both, got ${flags.to}`);
const SINKS = flags.to === 'both' ? ['null', 'pipe'] : [flags.to];
const sizes = positionals.map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [300_000];
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));

async function login(url) {
  const res = await fetch(`${url}/api/login/`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@example.com', password: 'demo' }),
  });
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (!res.ok || !cookie) throw new Error(`sandbox login failed: ${res.status}`);
  return cookie;
}

const fmt = (n, digits = 1) => n.toFixed(digits);
const work = mkdtempSync(join(tmpdir(), 'trackctl-bench-'));
try {
  const builds = [];
  if (flags.baseline) builds.push(buildRef(root, flags.baseline, join(work, 'baseline')));
  builds.push({ name: 'this tree', bin: join(root, 'bin/trackctl.js') });
  for (const n of SIZES) {
    const sandbox = await startSandbox({ port: 0, benchReports: n, quiet: true });
    const dir = join(work, String(n));
    try {
      const env = {
        PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
        TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
        TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_RETRIES: '0', TRACKCTL_TIMEOUT: '600s',
      };
      mkdirSync(dir, { recursive: true });
      await cliLogin(builds.at(-1).bin, env);
      const cookie = await login(sandbox.url);
      const url = `${sandbox.url}/reports/history/${BENCH_UNIT_ID}/`;
      const saved = join(dir, 'reply.json');
      writeFileSync(join(dir, 'cookie'), cookie);
      const curl = `curl -sf -H "Cookie: $(cat ${join(dir, 'cookie')})" ${url}`;
      await measure(`${curl} -o ${saved}`, env); // saved once: its size is the bytes every run reads
      const bytes = statSync(saved).size;
      rmSync(saved);
      const mb = bytes / 1e6;
      const to = { null: '> /dev/null', pipe: '| cat > /dev/null' };
      const contenders = [];
      for (const sink of SINKS) {
        for (const b of builds) {
          contenders.push({ name: `${b.name}, ${sink === 'null' ? '> /dev/null' : '| cat'}`, cmd: `"${process.execPath}" "${b.bin}" history ${BENCH_UNIT_ID} --all -o ndjson ${to[sink]}`, runs: [] });
        }
      }
      // The floor: the body copied to stdout by an HTTP client alone (bench/read-body.mjs), nothing checked or cut.
      if (SINKS.includes('null')) {
        for (const client of ['undici', 'http']) {
          const name = client === 'undici' ? 'undici alone (body to stdout), > /dev/null' : 'node:http alone (body to stdout), > /dev/null';
          contenders.push({ name, cmd: `"${process.execPath}" "${join(root, 'bench/read-body.mjs')}" ${client} ${url} "$(cat ${join(dir, 'cookie')})" > /dev/null`, runs: [] });
        }
      }
      if (flags.jq) contenders.push({ name: "curl | jq -c '.features[]'", cmd: `${curl} | jq -c '.features[]' > /dev/null`, runs: [] });
      const curlRuns = [];
      console.log(`\n${n.toLocaleString('en-US')} reports, ${fmt(mb)} MB reply, ${RUNS} repetitions (each: curl, then every contender, order rotating)`);
      for (let r = 0; r < RUNS; r++) {
        const c = await measure(`${curl} -o /dev/null`, env);
        curlRuns.push(c);
        const order = contenders.map((_, i) => contenders[(i + r) % contenders.length]);
        for (const k of order) k.runs.push({ ...(await measure(k.cmd, env)), curl: c });
      }
      const cpuOf = (runs) => (runs.every((x) => x.cpu !== undefined) ? `  CPU ${fmt(median(runs.map((x) => x.cpu)), 2)} s` : '');
      console.log(`  ${'curl -s -o /dev/null (the sandbox alone)'.padEnd(44)} ${fmt(median(curlRuns.map((c) => mb / c.seconds)), 0).padStart(5)} MB/s${cpuOf(curlRuns)}`);
      for (const k of contenders) {
        const mbs = median(k.runs.map((x) => mb / x.seconds));
        const ratio = median(k.runs.map((x) => x.curl.seconds / x.seconds));
        const rss = k.runs.some((x) => x.rssMB === undefined) ? 'n/a' : `${fmt(Math.max(...k.runs.map((x) => x.rssMB)), 0)} MB`;
        console.log(`  ${k.name.padEnd(44)} ${fmt(mbs, 0).padStart(5)} MB/s  ${Math.round(n / median(k.runs.map((x) => x.seconds))).toLocaleString('en-US').padStart(9)} reports/s  ratio to curl ${fmt(ratio, 2)}  peak RSS ${rss}${cpuOf(k.runs)}`);
      }
      console.log(`  (target: a ratio to curl of at least 0.8 (issue 32), with peak RSS under 100 MB; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`);
    } finally {
      await sandbox.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
