/**
 * Settings in effect: flag > environment > profile > default. The sandbox
 * (--sandbox or TRACKCTL_SANDBOX=1) replaces the base URL with an in-process
 * simulator on a loopback port, reached through the normal HTTP path.
 */
import { join } from 'node:path';
import { UsageError } from './errors.js';
import type { Context, Settings } from './context.js';
import { DEFAULTS, parseDurationMs, validateSetting } from './config/index.js';

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export async function resolveSettings(ctx: Context): Promise<Settings> {
  const { globals, env } = ctx;
  const profile = ctx.profileName();
  const stored = (await ctx.config()).read(profile);
  const pick = (flag: string | undefined, envName: string, key: keyof typeof stored): string | undefined =>
    flag ?? (env[envName] || undefined) ?? stored[key];

  const timeout = pick(globals.timeout, 'TRACKCTL_TIMEOUT', 'timeout') ?? DEFAULTS.timeout;
  const retries = pick(globals.retries, 'TRACKCTL_RETRIES', 'retries') ?? DEFAULTS.retries;
  const baseUrl = pick(globals.baseUrl, 'TRACKCTL_BASE_URL', 'base-url');
  const shareUrl = (env.TRACKCTL_SHARE_URL || undefined) ?? stored['share-url'];
  const store = (env.TRACKCTL_CREDENTIAL_STORE || undefined) ?? stored['credential-store'] ?? DEFAULTS['credential-store'];
  return {
    profile,
    baseUrl: baseUrl === undefined ? undefined : validateSetting('base-url', baseUrl),
    shareUrl: shareUrl === undefined ? undefined : validateSetting('share-url', shareUrl),
    clientId: (env.TRACKCTL_CLIENT_ID || undefined) ?? stored['client-id'] ?? DEFAULTS['client-id'],
    timeoutMs: parseDurationMs(validateSetting('timeout', timeout)),
    retries: Number(validateSetting('retries', retries)),
    credentialStore: validateSetting('credential-store', store) as Settings['credentialStore'],
    output: stored.output,
    sandbox: Boolean(globals.sandbox) || truthy(env.TRACKCTL_SANDBOX),
  };
}

export async function resolveBaseUrl(ctx: Context): Promise<string> {
  const settings = await ctx.settings();
  if (settings.sandbox) return startEmbeddedSandbox(ctx);
  if (settings.baseUrl) return settings.baseUrl;
  throw new UsageError('no service address is set for this profile', {
    hint: `Set one with: trackctl config set base-url https://… ${settings.profile === 'default' ? '' : `-p ${settings.profile} `}(or try --sandbox)`,
  });
}

async function startEmbeddedSandbox(ctx: Context): Promise<string> {
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    stateFile: join(ctx.paths().dataDir, 'sandbox-state.json'),
    quiet: true,
  });
  ctx.onDispose(() => sandbox.close());
  return sandbox.url;
}
