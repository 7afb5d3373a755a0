/**
 * Prompts, only where a person can answer: a missing value is asked for on a
 * TTY, and is a usage error (exit 2, naming the flag) everywhere else — without
 * a terminal on stdin and stderr, with --no-input, or with CI set.
 *
 * Prompts draw on stderr, never stdout: `trackctl users create > user.json`
 * asks its questions on the terminal and leaves only the record in the file.
 *
 * Exit codes of a person's "no":
 * - Ctrl-C (or Ctrl-D) at any prompt → InterruptedError, exit 130; nothing is sent.
 * - Declining a confirmation ("n", or Enter on the default No) → also exit 130,
 *   "cancelled; nothing was changed". gh exits with one code (its "cancel" code)
 *   for both, and so do we: both mean "the person at the terminal stopped it",
 *   neither is a usage error (2) nor a failure of the service (1), and a script
 *   never meets it, because without a terminal a destructive command needs --yes.
 */
import { InterruptedError, UsageError } from '../../errors.js';
import type { IO } from '../delivery/streams.js';

/** What a prompt needs of the command's context: the terminal, the flags that forbid asking, and whether one may ask. */
export interface PromptHost {
  readonly io: Pick<IO, 'stdin' | 'stderr'>;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: { readonly input: boolean; readonly yes?: boolean };
  interactive(): boolean;
}

async function prompts() {
  return import('@inquirer/prompts');
}

function promptStreams(ctx: PromptHost) {
  return { input: ctx.io.stdin, output: ctx.io.stderr, clearPromptOnDone: false };
}

async function guard<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (err) {
    if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
      throw new InterruptedError('interrupted; nothing was changed');
    }
    throw err;
  }
}

/** Why no prompt can be shown (for the usage error), in the order interactive() checks. */
function whyNotAsked(ctx: PromptHost): string {
  if (!ctx.globals.input) return '--no-input';
  const ci = ctx.env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false') return 'CI is set, so nothing is asked';
  return 'no terminal to ask on';
}

export interface AskOptions {
  secret?: boolean;
  choices?: readonly string[];
  validate?: (v: string) => string | true;
}

/** A required value as requireFlags sees it: undefined when not given; `choices` when the flag takes one of a set. */
export type RequiredFlag = readonly [value: unknown, flag: string, choices?: readonly string[]];

/**
 * Without a terminal, fails once naming every missing flag (`missing --name, --email`)
 * rather than one per run. Call it before the first valueOrAsk of a command that has
 * several required values; on a terminal it does nothing (each value is asked for).
 */
export function requireFlags(ctx: PromptHost, values: ReadonlyArray<RequiredFlag>, hint?: string): void {
  if (ctx.interactive()) return;
  const missing = values.filter(([value]) => value === undefined);
  if (missing.length === 0) return;
  // One missing flag reads like valueOrAsk's message; several name whose choices they are.
  const notes = missing.flatMap(([, flag, choices]) =>
    choices ? [`${missing.length > 1 ? `${flag}: ` : ''}one of ${choices.join(', ')}`] : [],
  );
  const flags = missing.map(([, flag]) => flag).join(', ');
  throw new UsageError(`missing ${flags} (${[whyNotAsked(ctx), ...notes].join('; ')})`, hint === undefined ? undefined : { hint });
}

/** Returns the given value, or asks for it on a TTY, or fails naming the flag. */
export async function valueOrAsk(ctx: PromptHost, value: string | undefined, flag: string, question: string, opts: AskOptions = {}): Promise<string> {
  if (value !== undefined) return value;
  if (!ctx.interactive()) {
    const choices = opts.choices ? `; one of ${opts.choices.join(', ')}` : '';
    throw new UsageError(`missing ${flag} (${whyNotAsked(ctx)}${choices})`);
  }
  const p = await prompts();
  const validate = opts.validate ?? ((v: string) => (v.trim() === '' ? 'a value is required' : true));
  if (opts.choices) {
    const choices = opts.choices;
    return guard(() => p.select({ message: question, choices: choices.map((c) => ({ name: c, value: c })) }, promptStreams(ctx)));
  }
  // Masked: each key shows as '*', the text itself never reaches the terminal.
  if (opts.secret) return guard(() => p.password({ message: question, mask: '*', validate }, promptStreams(ctx)));
  return guard(() => p.input({ message: question, validate }, promptStreams(ctx)));
}

/**
 * Destructive commands: --yes, or a confirmation on a TTY (default No); without
 * either it is a usage error (exit 2). Declining exits 130 (see the top of this file).
 */
export async function confirmOrFail(ctx: PromptHost, question: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!ctx.interactive()) {
    throw new UsageError(`${question.replace(/\?$/, '')}: refusing without --yes (${whyNotAsked(ctx)})`, {
      hint: 'Pass --yes (-y) to confirm without a prompt.',
    });
  }
  const p = await prompts();
  const ok = await guard(() => p.confirm({ message: question, default: false }, promptStreams(ctx)));
  if (!ok) throw new InterruptedError('cancelled; nothing was changed');
}
