/**
 * Prompts, only where a person can answer: a missing value is asked for on a
 * TTY, and is a usage error (naming the flag) everywhere else. Ctrl-C at a
 * prompt is an interruption (exit 130) and nothing is changed.
 */
import { InterruptedError, UsageError } from '../errors.js';
import type { Context } from '../context.js';

async function prompts() {
  return import('@inquirer/prompts');
}

function promptContext(ctx: Context) {
  return { input: ctx.io.stdin, output: ctx.io.stderr, clearPromptOnDone: false };
}

async function guard<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (err) {
    if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) throw new InterruptedError();
    throw err;
  }
}

/** Returns the given value, or asks for it on a TTY, or fails naming the flag. */
export async function valueOrAsk(
  ctx: Context,
  value: string | undefined,
  flag: string,
  question: string,
  opts: { secret?: boolean; choices?: readonly string[]; validate?: (v: string) => string | true } = {},
): Promise<string> {
  if (value !== undefined) return value;
  if (!ctx.interactive()) throw new UsageError(`missing ${flag}${ctx.globals.input ? ' (no terminal to ask on)' : ''}`);
  const p = await prompts();
  const validate = opts.validate ?? ((v: string) => (v.trim() === '' ? 'a value is required' : true));
  if (opts.choices) {
    const choices = opts.choices;
    return guard(() => p.select({ message: question, choices: choices.map((c) => ({ name: c, value: c })) }, promptContext(ctx)));
  }
  if (opts.secret) return guard(() => p.password({ message: question, mask: '*', validate }, promptContext(ctx)));
  return guard(() => p.input({ message: question, validate }, promptContext(ctx)));
}

/** Destructive commands: --yes, or a confirmation on a TTY; without either it is a usage error. */
export async function confirmOrFail(ctx: Context, question: string): Promise<void> {
  if (ctx.globals.yes) return;
  if (!ctx.interactive()) throw new UsageError(`${question.replace(/\?$/, '')}: refusing without --yes (no terminal to confirm on)`);
  const p = await prompts();
  const ok = await guard(() => p.confirm({ message: question, default: false }, promptContext(ctx)));
  if (!ok) throw new InterruptedError('cancelled; nothing was changed');
}
