// Runs the bundled tests with node's built-in runner. Node 20 does not expand
// globs, so the file list is built here. Extra arguments are file filters.
//
// The keychain tests need a Secret Service. When none is reachable (no session bus,
// or a bus without org.freedesktop.secrets: CI, containers, SSH sessions) and
// dbus-run-session and gnome-keyring-daemon are installed, this script runs itself
// again inside a private session bus with a new, unlocked keyring kept in a throwaway
// XDG_DATA_HOME (an existing keyring with another password would ask to be unlocked).
// So `npm test` alone is enough, on a desktop and in CI.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

// Node reads the file NODE_EXTRA_CA_CERTS names at every start: on a machine whose environment
// sets it, 0.05-0.1 s of CPU for each of the suite's ~200 Node processes (test files, npm, s3rver),
// none of which talks TLS but npm to its registry. The package test hands it back to npm.
if (process.env.NODE_EXTRA_CA_CERTS) {
  process.env.TRACKCTL_TEST_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}
const PRIVATE_KEYRING = 'TRACKCTL_TEST_KEYRING_DIR';

function hasTool(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Does the session bus in the environment have (or can it start) a Secret Service? */
function secretServiceReachable() {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return false;
  if (!hasTool('dbus-send')) return true; // cannot ask: trust the desktop's bus
  for (const method of ['ListNames', 'ListActivatableNames']) {
    const r = spawnSync(
      'dbus-send',
      ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', `org.freedesktop.DBus.${method}`],
      { encoding: 'utf8', timeout: 5000 },
    );
    if (r.status === 0 && r.stdout.includes('"org.freedesktop.secrets"')) return true;
  }
  return false;
}

if (process.env[PRIVATE_KEYRING] === undefined && !secretServiceReachable()) {
  if (hasTool('dbus-run-session') && hasTool('gnome-keyring-daemon')) {
    const keyrings = mkdtempSync(join(tmpdir(), 'trackctl-test-keyring-'));
    const r = spawnSync('dbus-run-session', ['--', process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, [PRIVATE_KEYRING]: keyrings },
    });
    rmSync(keyrings, { recursive: true, force: true });
    if (r.error) console.error(`dbus-run-session: ${r.error.message}`);
    process.exit(r.status ?? 1);
  }
  console.error('test: no Secret Service, and dbus-run-session or gnome-keyring-daemon is missing: the keychain tests will skip (fail with CI=true)');
}

if (process.env[PRIVATE_KEYRING] !== undefined) {
  // Inside the private bus: start the keyring daemon, unlocked with a password on stdin.
  const r = spawnSync('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    input: 'trackctl-test-keyring',
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, XDG_DATA_HOME: process.env[PRIVATE_KEYRING] },
  });
  if (r.status !== 0) {
    console.error(`gnome-keyring-daemon failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr}`);
    process.exit(1);
  }
  for (const line of r.stdout.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) process.env[m[1]] = m[2];
  }
}

const dir = join(root, 'dist-test');
function list(d) {
  if (!existsSync(d)) return [];
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? list(p) : n.endsWith('.test.js') ? [p] : [];
  });
}
// Files start in this order, as slots free: the longest first (measured: wall seconds of each file
// in a whole run, six at a time, on a 2-core machine, 2026-11-28), so that no long file starts last
// and runs alone at the end. Most of the longest wait more than they compute (processes, timers, a
// browser). `node --test` sorts the files it is given by name: run() keeps this order.
const LONGEST_FIRST = [
  'build/typecheck.', 'e2e/history-parquet.', 'e2e/map-browser.', 'e2e/delivery-pipe.', 'e2e/package.', 'unit/history-fastpath.', 'unit/lock.',
  'e2e/history-fleet.', 'e2e/doc-examples.', 'e2e/report.', 'e2e/completion.', 'e2e/watch.', 'unit/parquet-encode.', 'e2e/tty-output.',
  'e2e/delivery.', 'e2e/start.', 'sandbox/server.', 'unit/report-point.', 'e2e/http.', 'e2e/lake-codecs.', 'e2e/history.',
  'e2e/pipe.', 'e2e/map-cli.', 'e2e/map-browser-reports.', 'e2e/lake-kill.', 'e2e/lake-s3-kill.', 'unit/lake-s3.', 'e2e/jq-hostile.',
  'unit/map-budget.', 'e2e/report-truth-stops.', 'e2e/report-truth-speed.', 'e2e/lake-layout.', 'e2e/time-zone.', 'e2e/lake-s3-env.', 'e2e/lake-s3.',
  'unit/report-stream.', 'e2e/wait.', 'e2e/reply-shape.', 'e2e/code-cache.', 'unit/report-point-shape.', 'keychain/keychain.',
];
const rank = (f) => {
  const i = LONGEST_FIRST.findIndex((x) => f.includes(x));
  return i < 0 ? LONGEST_FIRST.length : i;
};
const filters = process.argv.slice(2);
const chosen = list(dir)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .sort((a, b) => rank(a) - rank(b));

// The short unit files run a few to a process: a process of node's test runner costs about 0.1 s
// of CPU before its first test, and 60-odd short files are the suite's majority by count (measured
// on 67 of them, 2026-11-28: 36 s of CPU as one process against 47 s as one process each). They
// share no state they do not restore (each file's tests still run one after another), and a
// file chosen by name runs alone.
const GROUPS = 3;
const grouped = filters.length === 0 ? chosen.filter((f) => f.includes('/unit/') && rank(f) === LONGEST_FIRST.length) : [];
const groupDir = grouped.length > 0 ? mkdtempSync(join(tmpdir(), 'trackctl-test-groups-')) : undefined;
const groups = Array.from({ length: groupDir ? GROUPS : 0 }, (_, i) => {
  const file = join(groupDir, `unit-group-${i + 1}.test.mjs`);
  const members = grouped.filter((_, j) => j % GROUPS === i);
  writeFileSync(file, members.map((f) => `import ${JSON.stringify(pathToFileURL(f).href)};\n`).join(''));
  return file;
});
if (groupDir) process.on('exit', () => rmSync(groupDir, { recursive: true, force: true }));
// The groups start after the files measured longest, before the other short ones.
const rest = chosen.filter((f) => !grouped.includes(f));
const longest = rest.filter((f) => rank(f) < LONGEST_FIRST.length).length;
const files = [...rest.slice(0, longest), ...groups, ...rest.slice(longest)];
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// Six files at once on two cores: most files spend most of their time waiting (for the
// processes they start, a server, a timer). Measured idle on a fresh clone, 2026-11-28: 271 s
// with four at once, 243 and 269 s with six, 243 s with eight. TRACKCTL_TEST_CONCURRENCY sets another number.
// The timeout only bounds a hang: Node applies it to each file as a whole too, and a heavy
// file (history-fleet, watch) takes several minutes on a 2-core machine at load 20+.
const concurrency = Number(process.env.TRACKCTL_TEST_CONCURRENCY ?? '6');
const stream = run({ files, concurrency, timeout: 900_000 });
stream.on('test:fail', (data) => {
  if (!data.todo) process.exitCode = 1;
});
// The reporter `node --test` picks: spec at a terminal, TAP otherwise.
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
