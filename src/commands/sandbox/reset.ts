/** `trackctl sandbox reset`: delete the persisted state so the next start seeds afresh. */
import type { IO } from '../../io/delivery/streams.js';
import type { Run } from '../action.js';
import { defaultStateFile } from './start.js';

export interface ResetOptions {
  state?: string;
}

export async function runReset(opts: ResetOptions, ctx: { io: IO; paths(): { dataDir: string } }): Promise<void> {
  const { resetState } = await import('../../sandbox/store.js');
  const file = opts.state ?? defaultStateFile(ctx);
  const removed = resetState(file);
  ctx.io.err(removed ? `Removed sandbox state ${file}` : `No sandbox state at ${file}; nothing to do`);
}

export const run: Run<ResetOptions> = (_args, opts, ctx) => runReset(opts, ctx);
