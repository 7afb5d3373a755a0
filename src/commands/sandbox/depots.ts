/** `trackctl sandbox depots`: print the demo fleet's depots as GeoJSON (for --geofence). */
import type { Run } from '../action.js';

export interface DepotsOptions {
  seed: number;
}

export const run: Run<DepotsOptions> = async (_args, opts, ctx) => {
  const { depotsText } = await import('../../sandbox/index.js');
  await ctx.io.out(depotsText(opts.seed));
};
