// What the benches share: timing a shell command under GNU time (wall seconds, peak RSS), a stored sign-in,
// a baseline build of another git ref, and the median.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (!TIME) console.error('note: /usr/bin/time is missing (apt-get install time): peak RSS will not be reported');

/** Runs `sh -c cmd` (async: a sandbox may live in the calling process); wall seconds, peak RSS in MB, CPU seconds. */
export function measure(cmd, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = TIME ? [TIME, '-v', 'sh', '-c', cmd] : ['sh', '-c', cmd];
    const child = spawn(args[0], args.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`));
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      const cpu = [/User time \(seconds\): ([\d.]+)/.exec(err), /System time \(seconds\): ([\d.]+)/.exec(err)];
      resolve({ seconds, rssMB: rss ? Number(rss[1]) / 1024 : undefined, cpu: cpu[0] && cpu[1] ? Number(cpu[0][1]) + Number(cpu[1][1]) : undefined });
    });
  });
}

/** `trackctl login --method session` with the demo account, so that each measured run reads stored credentials. */
export function cliLogin(bin, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'login', '--email', 'demo@example.com', '--password-stdin', '--method', 'session'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`trackctl login failed: ${err}`))));
    child.stdin.end('demo\n');
  });
}

/** A build of another git ref beside this tree (its own dist/, this tree's node_modules), for a same-run baseline. */
export function buildRef(root, ref, dir) {
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive ${commit} | tar -x -C "${dir}"`]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(dir, 'scripts/build.mjs'), '--no-check'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return { name: `baseline ${ref} (${commit})`, bin: join(dir, 'bin/trackctl.js') };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
