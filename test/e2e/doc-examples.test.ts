/**
 * Examples that cannot rot: every `trackctl …` example of the README, docs/ and the commands'
 * help (their man pages' EXAMPLES) is run, as written, against the sandbox, each page on a
 * sandbox of its own and in the page's order, as a reader would run them. Each must exit 0,
 * unless the table below says what else it does and why; a removed option, a renamed word or
 * an id the demo fleet does not have fails here, not for a reader.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, startHarness, type Harness } from '../helpers/cli.js';
import { docExamples, type DocExample } from '../helpers/doc-examples.js';
import { startS3Server, type S3Server } from '../helpers/s3rver.js';

/** What an example does when it is not "exit 0": the command it is, the outcome, and why. */
interface Expectation {
  command: RegExp;
  /** An exit code, or 'runs': a server or a follower that proved it runs (or is done, exit 0); see RUN_BOUND_MS. */
  outcome: number | 'runs';
  why: string;
}

const EXPECTED: Expectation[] = [
  { command: /^trackctl sandbox start\b/, outcome: 'runs', why: 'a server: it runs until stopped' },
  { command: /^trackctl (watch\b|.*--follow\b)/, outcome: 'runs', why: 'follows the fleet until stopped' },
  { command: /^trackctl wait\b/, outcome: 'runs', why: 'waits until the condition holds (or its --timeout)' },
  { command: /^trackctl devices get --tracker-id "\$imei"/, outcome: 4, why: "ensure-device.sh's first question: not there yet (4), so it creates the device" },
  { command: /^trackctl (-p \w+ )?login( --email \S+)?( -p \w+)?( --method \w+)?( -p \w+)?$/, outcome: 2, why: 'asks for the password at a terminal: here there is none' },
  { command: /^trackctl (-p \w+ )?login --email \S+ --save-password$/, outcome: 2, why: 'asks for the password at a terminal: here there is none' },
  { command: /^trackctl token create --email \S+$/, outcome: 2, why: 'asks for the password at a terminal: here there is none' },
  { command: /^trackctl -p staging devices list$/, outcome: 3, why: 'the staging profile was never signed in (its login asks at a terminal)' },
  { command: /--email ops@example\.com --password-stdin/, outcome: 3, why: 'the sandbox has no account ops@example.com (its password is refused)' },
  { command: /^trackctl token refresh -p staging$/, outcome: 3, why: 'the staging profile was never signed in' },
  { command: /^trackctl -p prod low$/, outcome: 2, why: 'no profile prod here: an example of where -p goes' },
  // Named in prose, not examples to run: each needs a verb, or says it refuses.
  { command: /^trackctl (report|map|apply)$/, outcome: 2, why: 'a command named in prose: it needs a verb or -f' },
  { command: /^trackctl map report summary$/, outcome: 2, why: 'the README says it refuses (summary has no map)' },
];

/**
 * A command that runs until stopped is stopped once it proved it runs: a server once it says
 * where it listens, a follower once the sandbox answered one of its polls. RUN_BOUND_MS only
 * bounds one that proves nothing: still running then, it runs.
 */
const RUN_BOUND_MS = 60_000;

/** Has the example that started when the sandbox had logged `from` requests proved it runs? */
function provesItRuns(command: string, sandbox: Harness['sandbox'], from: number): (stderr: string) => boolean {
  if (/^trackctl sandbox start\b/.test(command)) return (stderr) => /Sandbox listening on /.test(stderr);
  return () => sandbox.requests.slice(from).some((r) => r.path.includes('/reports/history/') && r.status >= 200 && r.status < 300);
}

/** Does a Markdown text hold a `trackctl …` line inside a shell block (```sh or a bare ```)? */
function hasShellExample(text: string): boolean {
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const open = /^```(\w*)/.exec(line);
    if (open) fence = fence === undefined ? open[1] : undefined;
    else if ((fence === '' || fence === 'sh') && /\btrackctl /.test(line)) return true;
  }
  return false;
}

/** `sandbox start --port 8080` of two pages at once would meet each other's port: one at a time. */
let portTaken: Promise<unknown> = Promise.resolve();

interface Outcome {
  code: number | 'runs';
  stderr: string;
}

function expectationFor(command: string): Expectation | undefined {
  return EXPECTED.find((e) => e.command.test(command));
}

/** Files the examples name, in the directory they run in (docs/ is the checkout's). */
function fixtures(dir: string): void {
  symlinkSync(join(ROOT, 'docs'), join(dir, 'docs'));
  const fence = JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { name: 'Depot', speedLimit: 30 }, geometry: { type: 'Polygon', coordinates: [[[-84.51, 33.74], [-84.49, 33.74], [-84.49, 33.76], [-84.51, 33.76], [-84.51, 33.74]]] } }],
  });
  for (const name of ['depots.geojson', 'depot.geojson', 'zones.geojson', 'yard.geojson']) writeFileSync(join(dir, name), fence);
  writeFileSync(join(dir, 'devices.csv'), 'name,tracker-id,type\nDoc van 1,359881234567001,TT8850\nDoc van 2,359881234567002,TT8850\n');
  writeFileSync(join(dir, 'sensors.csv'), 'name,unique-id,type\nDoc probe,SN-DOC-1,TAG-T1\n');
  writeFileSync(join(dir, 'users.csv'), 'name,email,type\nDoc Driver,doc.driver@example.com,trackedUser\n');
  // `cat devices.ndjson | trackctl devices import -`: other rows than the CSV's, so both create.
  writeFileSync(join(dir, 'devices.ndjson'), '{"name":"Doc van 3","tracker-id":"359881234567003","type":"TT8850"}\n');
  writeFileSync(join(dir, 'sensors.ndjson'), '{"name":"Doc probe 2","unique-id":"SN-DOC-2","type":"TAG-T1"}\n');
  writeFileSync(join(dir, 'users.ndjson'), '{"name":"Doc Driver 2","email":"doc.driver2@example.com","type":"trackedUser"}\n');
  cpSync(join(ROOT, 'docs', 'fleet.example.yaml'), join(dir, 'fleet.yaml'));
  mkdirSync(join(dir, 'var', 'lib'), { recursive: true });
}

/**
 * Runs one command in bash, in `dir`, with trackctl on PATH; stdin is empty (no terminal).
 * `runs`: the command runs until stopped, and is stopped (SIGTERM) once `runs` says it proved it.
 */
function runExample(command: string, dir: string, env: Record<string, string>, runs?: (stderr: string) => boolean): Promise<Outcome> {
  // Where an example reads a password on stdin, the reader pipes it in: the demo account's.
  const input = /--password-stdin/.test(command) && !/</.test(command) ? 'demo\n' : '';
  return new Promise((resolve, reject) => {
    // A cron example's absolute path lands in the test's directory instead.
    const line = command.replaceAll('/var/lib/', `${dir}/var/lib/`);
    const child = spawn('bash', ['-c', `${line} >/dev/null`], { cwd: dir, env, stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    // An example that reads no input may have ended before it is written: that is no error.
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.stdin.end(input);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch (err) {
        // The group may have ended between the proof and this kill (before 'close' was seen): nothing to stop.
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    };
    const timer = setTimeout(stop, runs ? RUN_BOUND_MS : 120_000);
    const proof = runs ? setInterval(() => runs(stderr) && stop(), 25) : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(proof);
      resolve({ code: stopped && runs ? 'runs' : (code ?? 1), stderr });
    });
  });
}

const pages = new Map<string, DocExample[]>();
/**
 * The page that runs each command: the first that shows it. A command shown again on a later
 * page (the README's `trackctl login status` in docs/configuration.md, a guide's example in a
 * man page: 66 of 309) ran as written already; a page runs the others in its order.
 */
const runOn = new Map<string, string>();
for (const example of docExamples(ROOT)) {
  const page = example.where.replace(/:\d+$/, '');
  pages.set(page, [...(pages.get(page) ?? []), example]);
  for (const command of example.commands) if (!runOn.has(command)) runOn.set(command, page);
}

describe('every example a reader is shown runs as written', { concurrency: 3 }, () => {
  let s3: S3Server;
  before(async () => {
    s3 = await startS3Server(ROOT, [], 'fleet-lake');
  });
  after(async () => s3?.close());

  test('the examples are found: the README, docs/ and every command with examples', () => {
    assert.ok(pages.get('README.md')!.length > 15, 'the README');
    // Every guide with a trackctl example in a shell block is a page of its own.
    for (const file of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      if (hasShellExample(readFileSync(join(ROOT, 'docs', file), 'utf8'))) assert.ok(pages.has(`docs/${file}`), `docs/${file}`);
    }
    assert.ok([...pages.keys()].filter((p) => p.startsWith('docs/')).length >= 10, 'docs/');
    assert.ok([...pages.keys()].filter((p) => p.startsWith('man/')).length > 15, 'the commands');
  });

  for (const [page, examples] of pages) {
    test(page, { timeout: 600_000 }, async () => {
      let h: Harness | undefined;
      const dir = mkdtempSync(join(tmpdir(), 'trackctl-doc-'));
      try {
        h = await startHarness();
        const bin = join(dir, '.bin');
        mkdirSync(bin);
        writeFileSync(join(bin, 'trackctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
        chmodSync(join(bin, 'trackctl'), 0o755);
        fixtures(dir);
        // What a reader has by the time they read on: a base URL in the profile, the fleet as JSON
        // (set-up, run in this process: the examples are what is looked at).
        assert.equal((await h.runIn(['config', 'set', 'base-url', h.sandbox.url])).code, 0);
        const fleet = await h.runIn(['export', '-o', 'json']);
        assert.equal(fleet.code, 0, fleet.stderr);
        writeFileSync(join(dir, 'fleet.json'), fleet.stdout);
        // The shell's variables of a script example (README: ensure-device.sh).
        const env = {
          ...h.env,
          ...s3.env,
          PATH: `${bin}:${process.env.PATH ?? ''}`,
          HOME: dir,
          // A reader's machine keeps trackctl's compiled code between runs (bin/trackctl.js): one cache for all pages.
          XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
          LANG: 'C.UTF-8',
          BROWSER: 'true', // map commands open their page with it
          imei: '359881234567009',
          name: 'Doc van 9',
          type: 'TT8850',
        };
        const failures: string[] = [];
        for (const example of examples) {
          for (const command of example.commands) {
            if (runOn.get(command) !== page) continue;
            const expected = expectationFor(command);
            const run = (): Promise<Outcome> =>
              runExample(command, dir, env, expected?.outcome === 'runs' ? provesItRuns(command, h!.sandbox, h!.sandbox.requests.length) : undefined);
            let outcome: Outcome;
            if (/--port \d/.test(command)) {
              const turn = portTaken.then(run);
              portTaken = turn.catch(() => undefined);
              outcome = await turn;
            } else outcome = await run();
            const want = expected?.outcome ?? 0;
            const ok = outcome.code === want || (want === 'runs' && outcome.code === 0);
            // A reader who signed out signs in again before the next example.
            if (/^trackctl (-p \S+ )?logout\b/.test(command)) await h.login();
            if (!ok) failures.push(`${example.where}: ${command}\n  exit ${outcome.code}, expected ${want}: ${outcome.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
          }
        }
        assert.deepEqual(failures, [], `${failures.length} example(s) of ${page} do not run as written:\n${failures.join('\n')}`);
      } finally {
        await h?.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
