// What the benches share: timing a shell command under GNU time (wall seconds, peak RSS) and a stored sign-in.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

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
