/**
 * What a history run says of a killed run's lake parts it found (runs/lake.ts recovers them):
 * only what was done is said to be done.
 */
import type { Context } from '../../context.js';
import type { Recovered } from '../../runs/lake.js';

/** Lines of what was left, at most: a record may name any number of keys. */
const LEFT_SHOWN = 10;

/** Says what became of a killed run's parts: only what was done is said to be done. */
export function sayRecovered(ctx: Context, r: Recovered): void {
  const parts = (n: number): string => `${n} part${n === 1 ? '' : 's'}`;
  if (!ctx.globals.quiet) {
    if (r.removed > 0) ctx.io.err(`Removed ${parts(r.removed)} of interrupted run ${r.run} (their reports are fetched again).`);
    if (r.missing > 0) ctx.io.err(`${parts(r.missing)} of interrupted run ${r.run} ${r.missing === 1 ? 'was' : 'were'} no longer there.`);
  }
  // Said even with --quiet: the checkpoint named files that a run would have deleted before.
  // Quoted: a forged name may hold any character, terminal controls included.
  const base = r.outDir.replace(/\/+$/, '');
  for (const { key, why } of r.left.slice(0, LEFT_SHOWN)) ctx.io.err(`warning: left ${JSON.stringify(`${base}/${key}`)} as it is: ${why}.`);
  if (r.left.length > LEFT_SHOWN) ctx.io.err(`warning: and ${r.left.length - LEFT_SHOWN} more the checkpoint names, left as they are.`);
}
