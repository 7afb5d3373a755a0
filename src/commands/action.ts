/** A verb module's entry point, as its declaration (declare.ts) hands it the parsed values. */
import type { Context } from '../context.js';
import { TrackctlError } from '../errors.js';
import type { Handler } from './declare.js';

/** A verb module's entry point: its operands, its typed options, the context (and the command it runs as). */
export type Run<O> = Handler<O>;

/**
 * A list, table or history with nothing in it, on a terminal, says so on stderr ("No users
 * found."), unless --quiet: piped or in another format the output stays empty for a script.
 */
export function sayNoneFound(ctx: Context, out: { readonly tty: boolean }, what: string): void {
  if (out.tty && !ctx.globals.quiet) ctx.io.err(`No ${what} found.`);
}

/**
 * An update's requests in turn (a rename, then memberships): one that fails ends it, and its
 * error says which changes were applied before it, so nobody thinks nothing changed.
 */
export async function inTurn<T>(steps: ReadonlyArray<{ what: string; run: () => Promise<T> }>): Promise<T | undefined> {
  const applied: string[] = [];
  let last: T | undefined;
  for (const step of steps) {
    try {
      last = await step.run();
    } catch (err) {
      if (applied.length > 0 && err instanceof TrackctlError) err.message = `${err.message} (applied before it: ${applied.join(', ')})`;
      throw err;
    }
    applied.push(step.what);
  }
  return last;
}
