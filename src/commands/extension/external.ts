/**
 * `trackctl NAME …` where NAME is not a command: an alias (config `aliases`), else the
 * extension `trackctl-NAME` on PATH, else nothing (commander reports the unknown command).
 * Loaded only then, so normal commands pay nothing for it.
 *
 * An extension, and a shell alias (`!…`), run with the terminal's stdin, stdout and
 * stderr, and the active profile's settings in the environment: TRACKCTL_PROFILE, and
 * TRACKCTL_BASE_URL (or TRACKCTL_SANDBOX=1) and TRACKCTL_OUTPUT when set; an extension
 * that needs a token runs `trackctl token print`. Their exit status is trackctl's; a
 * death by signal N is 128+N, as sh reports it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Command } from 'commander';
import type { Context, GlobalOptions } from '../../context.js';
import { expandAlias } from '../alias/expand.js';
import { findExtension, listExtensions } from './path.js';

export type Outcome = { argv: string[] } | { code: number };

/**
 * `argv[at]` is the first operand and not a command. With `aliases` false (a line an alias
 * expanded to), only extensions are looked up: an alias never expands to another.
 */
export async function runExternal(argv: readonly string[], at: number, program: Command, ctx: Context, aliases: boolean): Promise<Outcome | undefined> {
  const name = argv[at]!;
  const before = argv.slice(0, at);
  const rest = argv.slice(at + 1);
  const expansion = aliases ? (await ctx.config()).aliases()[name] : undefined;
  if (expansion === undefined) {
    const extension = findExtension(name, ctx.env.PATH);
    if (!extension) return undefined;
    return { code: await runChild(extension.path, rest, await childEnv(before, program, ctx)) };
  }
  const expanded = expandAlias(name, expansion, rest);
  if (expanded.kind === 'argv') return { argv: [...before, ...expanded.argv] };
  // sh's $0 is the alias name, so its messages name it.
  return { code: await runChild('sh', ['-c', expanded.script, name, ...expanded.args], await childEnv(before, program, ctx)) };
}

/** The environment of a child: ours, with the active profile's settings (the root options before NAME count). */
async function childEnv(before: readonly string[], program: Command, ctx: Context): Promise<NodeJS.ProcessEnv> {
  program.parseOptions([...before]);
  ctx.globals = program.opts() as GlobalOptions;
  const settings = await ctx.settings();
  const env: NodeJS.ProcessEnv = { ...ctx.env, TRACKCTL_PROFILE: settings.profile };
  if (settings.sandbox) env.TRACKCTL_SANDBOX = '1';
  else if (settings.baseUrl !== undefined) env.TRACKCTL_BASE_URL = settings.baseUrl;
  const output = ctx.globals.output ?? (ctx.env.TRACKCTL_OUTPUT || undefined) ?? settings.output;
  if (output !== undefined) env.TRACKCTL_OUTPUT = output;
  return env;
}

async function runChild(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(file, [...args], { stdio: 'inherit', env });
  // Ctrl-C reaches the child from the terminal; trackctl stays until the child decides.
  // A SIGTERM or SIGHUP sent to trackctl alone is passed on.
  const ignore = (): void => undefined;
  const pass = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', ignore);
  process.on('SIGTERM', pass);
  process.on('SIGHUP', pass);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    process.off('SIGINT', ignore);
    process.off('SIGTERM', pass);
    process.off('SIGHUP', pass);
  }
}

/** Appended to the root help: the aliases and extensions there are. */
export async function externalHelp(ctx: Context, commands: readonly string[]): Promise<string> {
  let aliases: Record<string, string> = {};
  try {
    aliases = (await ctx.config()).aliases();
  } catch {
    // A broken config file is reported by the commands that use it, not by help.
  }
  const extensions = listExtensions(ctx.env.PATH, commands);
  const blocks: string[] = [];
  const names = Object.keys(aliases).sort();
  if (names.length > 0) blocks.push(['Aliases (trackctl alias list):', ...names.map((n) => `  ${n.padEnd(12)}  ${aliases[n]}`)].join('\n'));
  if (extensions.length > 0) blocks.push(['Extensions (trackctl-NAME on PATH):', ...extensions.map((e) => `  ${e.name.padEnd(12)}  ${e.path}`)].join('\n'));
  return blocks.length > 0 ? `${blocks.join('\n\n')}\n` : '';
}
