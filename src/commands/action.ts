/**
 * Glue between commander and a verb module: the module is imported only when
 * the verb runs, and receives its operands, its own options and the context.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { examples as examplesText, type Handler } from './declare.js';

/** A verb module's entry point: its operands, its options and the context. */
export type Run<O> = Handler<O>;

export function lazyAction<O>(ctx: Context, load: () => Promise<{ run: Run<O> }>) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const { run } = await load();
    await run(cmd.args, cmd.opts() as O, ctx);
  };
}

/** The "Examples:" help text of a command not declared with defineCommand. */
export function examples(...lines: string[]): string {
  return examplesText(lines);
}
