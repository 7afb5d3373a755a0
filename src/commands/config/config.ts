import { UsageError } from '../../errors.js';
import { PROFILE_KEYS, validateProfileName, validateSetting, withDefaults } from '../../config/index.js';
import { renderList, type Column } from '../../io/formats/output.js';
import type { Context } from '../../context.js';
import type { Run } from '../action.js';

const COLUMNS: Column[] = [
  { key: 'key', header: 'KEY', priority: 1 },
  { key: 'value', header: 'VALUE', shrink: true, priority: 1 },
  { key: 'source', header: 'SOURCE' },
];

function knownKey(key: string): (typeof PROFILE_KEYS)[number] {
  const found = PROFILE_KEYS.find((k) => k === key);
  if (!found) throw new UsageError(`unknown setting "${key}": valid keys are ${PROFILE_KEYS.join(', ')}`);
  return found;
}

/** Each key's value in force for the profile: stored, or its default (share-url: base-url's origin), or unset. */
async function effective(ctx: Context) {
  const stored = (await ctx.config()).read(ctx.profileName());
  const values = withDefaults(stored);
  return PROFILE_KEYS.map((key) => {
    const value = values[key];
    return { key, value: value ?? '', source: stored[key] !== undefined ? 'profile' : value !== undefined ? 'default' : 'unset' };
  });
}

export const list: { run: Run<Record<string, never>> } = {
  run: async (_args, _opts, ctx) => {
    await renderList(await effective(ctx), COLUMNS, await ctx.output());
  },
};

export const get: { run: Run<Record<string, never>> } = {
  run: async (args, _opts, ctx) => {
    const key = knownKey(args[0] ?? '');
    const row = (await effective(ctx)).find((r) => r.key === key);
    if (!row || row.source === 'unset') throw new UsageError(`${key} is not set for profile ${ctx.profileName()}`);
    await ctx.io.out(`${row.value}\n`);
  },
};

export const set: { run: Run<Record<string, never>> } = {
  run: async (args, _opts, ctx) => {
    const key = knownKey(args[0] ?? '');
    validateSetting(key, args[1] ?? '');
    const stored = await (await ctx.config()).set(ctx.profileName(), key, args[1] ?? '');
    if (!ctx.globals.quiet) ctx.io.err(`${key} = ${stored} (profile ${ctx.profileName()})`);
  },
};

export const unset: { run: Run<Record<string, never>> } = {
  run: async (args, _opts, ctx) => {
    const key = knownKey(args[0] ?? '');
    const removed = await (await ctx.config()).unset(ctx.profileName(), key);
    if (!ctx.globals.quiet) ctx.io.err(removed ? `${key} unset (profile ${ctx.profileName()})` : `${key} was not set`);
  },
};

export const path: { run: Run<Record<string, never>> } = {
  run: async (_args, _opts, ctx) => {
    await ctx.io.out(`${(await ctx.config()).path}\n`);
  },
};

export const use: { run: Run<Record<string, never>> } = {
  run: async (args, _opts, ctx) => {
    const profile = validateProfileName(args[0] ?? '');
    const config = await ctx.config();
    await config.setCurrentProfile(profile === 'default' ? undefined : profile);
    if (!ctx.globals.quiet) ctx.io.err(`Using profile ${profile}${config.profiles().includes(profile) ? '' : ' (it has no settings yet)'}.`);
  },
};
