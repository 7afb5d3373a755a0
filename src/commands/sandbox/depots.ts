/** `trackctl sandbox depots`: print the demo fleet's depots as GeoJSON (for --geofence). */
import type { Run } from '../action.js';
import { seedOption } from './start.js';

export interface DepotsOptions {
  seed?: string;
}

export const run: Run<DepotsOptions> = async (_args, opts, ctx) => {
  const seed = seedOption(opts.seed) ?? 1;
  const { depotsText } = await import('../../sandbox/index.js');
  await ctx.io.out(depotsText(seed));
};
