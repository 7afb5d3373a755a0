/** `trackctl sandbox depots`: print the demo fleet's depots as GeoJSON (for --geofence). */
import type { IO } from '../../io/delivery/streams.js';
import { seedOption } from './start.js';

export interface DepotsOptions {
  seed?: string;
}

export async function runDepots(opts: DepotsOptions, ctx: { io: IO }): Promise<void> {
  const seed = seedOption(opts.seed) ?? 1;
  const { depotsText } = await import('../../sandbox/index.js');
  await ctx.io.out(depotsText(seed));
}
