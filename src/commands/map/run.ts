/**
 * `trackctl map <command> …`: runs `trackctl <command> … -o html` as a child process with its
 * stdout in a temporary file (so the map page is exactly what -o html prints, and `map`
 * needs nothing of the command's internals), then opens that file in the browser on a
 * terminal, or prints its path elsewhere. The child's stderr (progress, errors) is ours.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { GlobalOptions } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Run } from '../action.js';
import { openInBrowser } from './browser.js';

/** The commands that can draw a map. */
const MAPPABLE = ['history', 'units', 'report'];
/** The reports whose records are places (the others are tables of numbers or visits: no -o html). */
const MAPPED_REPORTS = ['trips', 'stops'];
/** Exit codes after which the page is worth opening: success, and a partial failure (the units that did answer). */
const PAGE_WRITTEN = new Set([0, 7]);

/** The global options given, as flags for the child (the environment it inherits carries the rest). */
export function globalFlags(g: GlobalOptions): string[] {
  const flags: string[] = [];
  if (g.profile !== undefined) flags.push('--profile', g.profile);
  if (g.baseUrl !== undefined) flags.push('--base-url', g.baseUrl);
  if (g.sandbox) flags.push('--sandbox');
  if (g.timeout !== undefined) flags.push('--timeout', g.timeout);
  if (g.retries !== undefined) flags.push('--retries', g.retries);
  if (g.verbose) flags.push('--verbose');
  if (g.quiet) flags.push('--quiet');
  if (!g.color) flags.push('--no-color');
  if (!g.input) flags.push('--no-input');
  return flags;
}

function mapFile(command: string, nowMs: number): string {
  const dir = join(tmpdir(), 'trackctl-maps');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date(nowMs).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return join(dir, `${command}-${stamp}-${randomBytes(3).toString('hex')}.html`);
}

function runChild(args: string[], stdout: number | 'inherit', env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['inherit', stdout, 'inherit'], env });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
  });
}

export const run: Run<Record<string, never>> = async (args, _opts, ctx) => {
  const [command, ...rest] = args;
  if (command === undefined || !MAPPABLE.includes(command)) {
    throw new UsageError(`map draws ${MAPPABLE.join(' or ')}, not "${command ?? ''}": e.g. trackctl map history 2004`);
  }
  const output = ctx.globals.output;
  if (output !== undefined && output.trim().toLowerCase() !== 'html') throw new UsageError(`map writes an html page; drop -o ${output} (or use trackctl ${command} -o ${output})`);
  if (ctx.globals.raw) throw new UsageError('map draws the records; --raw cannot be used with it');
  // Said here: the report itself would only answer that -o html is no format of its own.
  const kind = command === 'report' ? rest[0] : undefined;
  if (kind !== undefined && !kind.startsWith('-') && !MAPPED_REPORTS.includes(kind) && !rest.includes('-h') && !rest.includes('--help')) {
    throw new UsageError(`report ${kind} has no map; the reports with one are ${MAPPED_REPORTS.join(' and ')}: e.g. trackctl map report stops 2004 --from 1d`, {
      hint: `For report ${kind}, print it instead: trackctl report ${kind} … (-o table, json, ndjson, csv or yaml)`,
    });
  }
  const bin = process.argv[1];
  if (bin === undefined) throw new Error('cannot find the trackctl script to run');
  const childArgs = [bin, ...globalFlags(ctx.globals), command, ...rest, '-o', 'html'];

  // Help goes to the terminal, not into a page.
  if (rest.includes('-h') || rest.includes('--help')) {
    ctx.exitCode = await runChild(childArgs, 'inherit', ctx.env);
    return;
  }
  const file = mapFile(command, ctx.clock.now());
  const fd = openSync(file, 'wx', 0o600);
  let code: number;
  try {
    code = await runChild(childArgs, fd, ctx.env);
  } finally {
    closeSync(fd);
  }
  if (!PAGE_WRITTEN.has(code) || statSync(file).size === 0) {
    rmSync(file, { force: true });
    ctx.exitCode = code === 0 ? 1 : code;
    return;
  }
  ctx.exitCode = code;
  if (!ctx.io.stdoutIsTTY) {
    await ctx.io.out(`${file}\n`);
    return;
  }
  const opened = await openInBrowser(file, ctx.env);
  if (opened.ok) {
    if (!ctx.globals.quiet) ctx.io.err(`Opened the map in your browser: ${file}`);
  } else {
    ctx.io.err(`Could not open a browser (${opened.reason}); the map is at ${file}`);
  }
};
