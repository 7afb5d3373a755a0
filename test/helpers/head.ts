/**
 * `trackctl … | head -n N` (or `| cat`) with both ends seen: the real reader, its own exit, and the binary's
 * own exit code. A reader that stays is `cat`, not a head with a large N: head writes through stdio, so up to
 * 8 KB of what it read waits in its buffer until it fills or head exits.
 */
import { spawn } from 'node:child_process';
import { BIN, type Harness } from './cli.js';

export interface HeadPipe {
  /** What head printed. */
  out(): string;
  /** head's exit (it leaves after N lines, as a reader that goes away). */
  headExit: Promise<number>;
  /** The binary's exit code (128 + n when a signal ended it). */
  exit: Promise<number>;
  err(): string;
  kill(sig: NodeJS.Signals): void;
}

export function pipeToHead(h: Harness, args: string[], lines: number | 'all'): HeadPipe {
  const head = spawn(lines === 'all' ? 'cat' : 'head', lines === 'all' ? [] : ['-n', String(lines)], { stdio: ['pipe', 'pipe', 'ignore'] });
  const cli = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env }, stdio: ['ignore', head.stdin, 'pipe'] });
  head.stdin.destroy(); // the binary holds the pipe's only write end: head sees its end when the binary exits
  let out = '';
  let err = '';
  head.stdout.on('data', (d: Buffer) => (out += d.toString()));
  cli.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const signalCode = (signal: NodeJS.Signals | null): number => (signal === 'SIGKILL' ? 137 : signal === 'SIGPIPE' ? 141 : 128);
  return {
    out: () => out,
    headExit: new Promise((resolve) => head.on('close', (code) => resolve(code ?? 1))),
    exit: new Promise((resolve) => cli.on('close', (code, signal) => resolve(code ?? signalCode(signal)))),
    err: () => err,
    kill: (sig) => void cli.kill(sig),
  };
}
