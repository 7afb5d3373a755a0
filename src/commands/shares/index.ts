/** `shares`: location share links for a device or a group, their URLs and embeds; declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, duration, int, registerCommand, text, time } from '../declare.js';
import { group, listing, zone } from '../shared-options.js';
import { id, whole } from '../values.js';
import { parseExpiresIn } from './validate.js';

/** --width / --height of an embed: pixels. */
const pixels = whole(1, 99_999);

export const shareVerbs = [
  defineCommand({
    name: 'list',
    aliases: ['ls'],
    summary: 'List location shares; expired ones are flagged',
    options: [...listing(), zone()],
    examples: ['trackctl shares list', 'trackctl shares list -o json', 'trackctl shares list -o csv --fields sid,name,expiration'],
    load: () => import('./list.js'),
  }),
  defineCommand({
    name: 'get',
    summary: 'Show one location share',
    args: [{ spec: '<sid>', help: 'share id' }],
    options: [zone()],
    examples: ['trackctl shares get Jyjs2YFhY4vA', 'trackctl shares get Jyjs2YFhY4vA -o json'],
    load: () => import('./get.js'),
  }),
  defineCommand({
    name: 'create',
    summary: 'Create a share link for one device or one group; without an expiry flag it never expires',
    options: [
      int('--device <did>', 'share this device', id('device id')),
      group('share this group'),
      text('--name <name>', 'share name'),
      time('--expires <time>', 'expire at a time: unix seconds, ISO 8601 (without an offset: in the zone), friday (the next), 3d (from now), or never'),
      zone(),
      duration('--expires-in <duration>', 'expire after a duration counted by the service, e.g. 45m, 2d, 2d3h30m, or never', parseExpiresIn),
    ],
    examples: [
      'trackctl shares create --device 2004 --name "Customer ETA"',
      'trackctl shares create --group 101 --name "Depot map" --expires 2026-12-31T18:00:00Z',
      'trackctl shares create --device 2004 --name "Delivery 4471" --expires-in 2d3h30m',
    ],
    load: () => import('./create.js'),
  }),
  defineCommand({
    name: 'update',
    summary: 'Rename a share or move its expiry (only name and expiry can change)',
    args: [{ spec: '<sid>', help: 'share id' }],
    options: [
      text('--name <name>', 'new name'),
      time('--expires <time>', 'new expiry: unix seconds, ISO 8601 (without an offset: in the zone), friday (the next), or 3d (from now)'),
      zone(),
    ],
    examples: ['trackctl shares update Jyjs2YFhY4vA --name "ETA (Tue)"', 'trackctl shares update Jyjs2YFhY4vA --expires 7d'],
    load: () => import('./update.js'),
  }),
  defineCommand({
    name: 'delete',
    aliases: ['rm'],
    summary: 'Delete location shares; continues past failures and reports each',
    args: [{ spec: '<sid...>', help: 'share ids' }],
    options: [],
    examples: ['trackctl shares delete cVsWhVbbLIEc --yes', 'trackctl shares delete Jyjs2YFhY4vA --yes -o json'],
    load: () => import('./delete.js'),
  }),
  defineCommand({
    name: 'url',
    summary: 'Print the public link of a share (no request is sent)',
    args: [{ spec: '<sid>', help: 'share id' }],
    options: [],
    examples: ['trackctl shares url DyyRCTE92kQz', 'open "$(trackctl shares url DyyRCTE92kQz)"'],
    load: () => import('./url.js'),
  }),
  defineCommand({
    name: 'embed',
    summary: 'Print an inline-frame snippet that embeds a share in a web page (no request is sent)',
    args: [{ spec: '<sid>', help: 'share id' }],
    options: [int('--width <px>', 'frame width in pixels', pixels, { fallback: '420' }), int('--height <px>', 'frame height in pixels', pixels, { fallback: '380' })],
    examples: ['trackctl shares embed DyyRCTE92kQz', 'trackctl shares embed DyyRCTE92kQz --width 640 --height 480 >> page.html'],
    load: () => import('./embed.js'),
  }),
] as const;

export function registerShares(program: Command, ctx: Context): void {
  const noun = program.command('shares').description('Manage location share links of a device or a group');
  for (const verb of shareVerbs) registerCommand(noun, verb, ctx);
}
