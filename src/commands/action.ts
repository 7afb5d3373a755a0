/**
 * Glue between commander and a verb module: the module is imported only when
 * the verb runs, and receives its operands, its own options and the context.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';

export type Run<O> = (args: string[], opts: O, ctx: Context) => Promise<void>;

export function lazyAction<O>(ctx: Context, load: () => Promise<{ run: Run<O> }>) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const { run } = await load();
    await run(cmd.args, cmd.opts() as O, ctx);
  };
}

/** Collects a repeatable option: --add-group 1 --add-group 2,3 → ['1', '2,3']. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
