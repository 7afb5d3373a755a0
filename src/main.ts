/**
 * Entry point: build the context, parse, run, and map errors to exit codes.
 * The only place that decides a process exit code.
 */
import { createContext, type Clock } from './context.js';
import { ExitCode, Reported, TrackctlError, exitCodeFor, isLocalIOFailure, localIOError } from './errors.js';
import { isReaderGone, systemIO, type IO } from './io/delivery/streams.js';
import { COMMAND_NAMES } from './commands/names.js';
import { buildProgram, joinPairOptions, operandIndex } from './program.js';

declare const __TRACKCTL_VERSION__: string;
export const VERSION = typeof __TRACKCTL_VERSION__ === 'string' ? __TRACKCTL_VERSION__ : '0.0.0-dev';

/**
 * The command line (bin/trackctl.js): runs, waits until stdout and stderr have
 * written everything, then exits at once. Every request, write and lock is
 * awaited by then, and leaving through process.exit skips Node's teardown of
 * the heap, ~3 ms of every command.
 */
export async function run(argv: string[]): Promise<never> {
  const io = systemIO();
  const code = await main(argv, io);
  await io.flush();
  // A reader that left during the last writes: quiet, as a program killed by SIGPIPE.
  process.exit(io.readerLeft?.() ? ExitCode.readerLeft : code);
}

export interface MainOptions {
  /** The context's clock (tests fix it); the system's by default. */
  clock?: Clock;
  /** false: argv is what an alias expanded to (an alias never expands to another). */
  aliases?: boolean;
}

/** One command line, start to finish, as an exit code; never exits the process (tests run it in-process). */
export async function main(given: string[], io: IO = systemIO(), env: NodeJS.ProcessEnv = process.env, options: MainOptions = {}): Promise<number> {
  const { clock, aliases = true } = options;
  const argv = joinPairOptions(given);
  const ctx = createContext(io, env, VERSION, clock);
  try {
    const program = buildProgram(ctx, VERSION, argv);
    const at = operandIndex(argv, program);
    const word = at === undefined ? undefined : argv[at];
    if (at !== undefined && word !== undefined && !COMMAND_NAMES.includes(word)) {
      // Not a command: an alias or an extension (trackctl-NAME on PATH), loaded only now.
      const { runExternal } = await import('./commands/extension/external.js');
      const outcome = await runExternal(argv, at, program, ctx, aliases);
      if (outcome && 'argv' in outcome) return await main(outcome.argv, io, env, { clock, aliases: false });
      if (outcome) return outcome.code;
    } else if (word === undefined || (word === 'help' && at === argv.length - 1)) {
      const { externalHelp } = await import('./commands/extension/external.js');
      program.addHelpText('after', await externalHelp(ctx, COMMAND_NAMES));
    }
    await program.parseAsync(argv, { from: 'user' });
    return io.readerLeft?.() ? ExitCode.readerLeft : ctx.exitCode;
  } catch (err) {
    // The reader went away (`| head`): nothing to say, the shell knows why (exit 141).
    if (io.readerLeft?.() || isReaderGone(err)) return ExitCode.readerLeft;
    if (isCommanderExit(err)) {
      // commander printed help or its own usage message already.
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return reportError(err, io, env);
  } finally {
    await ctx.dispose();
  }
}

function reportError(thrown: unknown, io: IO, env: NodeJS.ProcessEnv): number {
  const err = fromSystemError(thrown);
  const code = exitCodeFor(err);
  if (err instanceof Reported) {
    if (err.message !== '') io.err(`error: ${err.message}`);
  } else if (err instanceof TrackctlError) {
    io.err(`error: ${err.message}`);
    if (err.hint) io.err(err.hint);
  } else if (err instanceof Error) {
    io.err(`error: ${err.message}`);
    if (env.TRACKCTL_DEBUG) io.err(err.stack ?? '');
  } else {
    io.err(`error: ${String(err)}`);
  }
  return code;
}

/**
 * A file system error that no layer named (`EEXIST: file already exists, mkdir '/etc/passwd'`)
 * still says what it was doing and where: "cannot mkdir /etc/passwd: exists already (EEXIST)".
 */
function fromSystemError(err: unknown): unknown {
  if (err instanceof TrackctlError || !isLocalIOFailure(err)) return err;
  const { path, syscall } = err as { path?: unknown; syscall?: unknown };
  if (typeof path !== 'string') return localIOError(err, 'a local file');
  return localIOError(err, path, typeof syscall === 'string' ? syscall : 'write');
}

/** commander's exits (help shown, usage error already printed) carry a "commander." code. */
function isCommanderExit(err: unknown): err is { exitCode: number } {
  const e = err as { code?: unknown; exitCode?: unknown };
  return typeof e?.code === 'string' && e.code.startsWith('commander.') && typeof e.exitCode === 'number';
}
