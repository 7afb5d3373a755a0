/**
 * The context hands a command only what it asks for, and loads it on first use:
 * `--help`, `--version` and `completion` never load HTTP, keychain or sandbox code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './errors.js';
import { colorWanted, type IO } from './io/delivery/streams.js';
import { resolvePaths, type Paths } from './paths.js';
import type { OutputFormat, OutputOptions } from './io/formats/output.js';
import type { ListArrangement } from './io/formats/render/types.js';
import type { ConfigStore } from './config/index.js';
import type { SecretStore } from './auth/store/index.js';
import type { Api } from './api/client.js';
import type { HttpClient } from './api/http.js';
import type { Session } from './auth/session.js';
import type { Settings } from './settings.js';

/** Options every command accepts (commander's optsWithGlobals()). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  sandbox?: boolean;
  output?: string;
  fields?: string;
  jq?: string;
  /** --arg and --argjson: [name, value] each, in order (program.ts joins each pair). */
  arg?: Array<[string, string]>;
  argjson?: Array<[string, string]>;
  template?: string;
  header: boolean;
  raw?: boolean;
  color: boolean;
  input: boolean;
  yes?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  timeout?: string;
  retries?: string;
  /** --tz, on the commands that read or print times (commands/time-options.ts declares it). */
  tz?: string;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Context {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly clock: Clock;
  readonly version: string;
  /** Set by a command that finished with a non-error, non-zero outcome. */
  exitCode: number;
  globals: GlobalOptions;
  paths(): Paths;
  profileName(): string;
  config(): Promise<ConfigStore>;
  settings(): Promise<Settings>;
  /** The invocation's IANA zone: --tz, else TZ, else the profile's tz, else the system's (validated). */
  timeZone(): Promise<string>;
  /** The service address; with --sandbox, starts the embedded sandbox first. */
  baseUrl(): Promise<string>;
  secrets(): Promise<SecretStore>;
  /** The one HTTP client (one keep-alive dispatcher) of this process. */
  http(): Promise<HttpClient>;
  session(): Promise<Session>;
  api(): Promise<Api>;
  /** Output options from -o/--fields/--no-header; `fields` lists what --fields may name, checked before any request. */
  output(opts?: { fields?: readonly string[]; list?: ListArrangement }): Promise<OutputOptions>;
  /** For a command with formats of its own (history: geojson, gpx, kml): the chosen one, and options for the shared renderers. */
  outputAs<F extends string>(allowed: readonly F[], opts?: { fields?: readonly string[] }): Promise<{ format: F; out: OutputOptions }>;
  /** Prompts are allowed: stdin and stderr are terminals, not --no-input, not CI. */
  interactive(): boolean;
  /** Register cleanup (closing the dispatcher, the in-process sandbox). */
  onDispose(fn: () => Promise<void> | void): void;
  dispose(): Promise<void>;
}

export function createContext(
  io: IO,
  env: NodeJS.ProcessEnv,
  version: string,
  clock: Clock = { now: () => Date.now() },
): Context {
  const disposers: Array<() => Promise<void> | void> = [];
  const memo = new Map<string, Promise<unknown>>();
  function once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      memo.set(key, p);
    }
    return p;
  }
  let paths: Paths | undefined;

  const ctx: Context = {
    io,
    env,
    clock,
    version,
    exitCode: 0,
    globals: { header: true, color: true, input: true },

    paths() {
      return (paths ??= resolvePaths(env));
    },

    profileName() {
      return ctx.globals.profile ?? env.TRACKCTL_PROFILE ?? readCurrentProfile(ctx) ?? 'default';
    },

    config: () =>
      once('config', async () => {
        const { openConfig } = await import('./config/index.js');
        return openConfig(ctx.paths().configDir);
      }),

    settings: () =>
      once('settings', async () => {
        const { resolveSettings } = await import('./settings.js');
        const profile = ctx.profileName();
        return resolveSettings({ globals: ctx.globals, env, profile, stored: (await ctx.config()).read(profile) });
      }),

    timeZone: () =>
      once('timeZone', async () => {
        const { resolveTimeZone } = await import('./settings.js');
        return resolveTimeZone(ctx.globals.tz, env, (await ctx.config()).read(ctx.profileName()));
      }),

    baseUrl: () =>
      once('baseUrl', async () => {
        const { resolveBaseUrl } = await import('./settings.js');
        return resolveBaseUrl(await ctx.settings(), ctx.paths().dataDir, (close) => ctx.onDispose(close));
      }),

    secrets: () =>
      once('secrets', async () => {
        const settings = await ctx.settings();
        if (settings.sandbox) {
          const { MemoryStore } = await import('./runtime.js');
          return new MemoryStore();
        }
        const { openSecretStore } = await import('./runtime.js');
        return openSecretStore({
          mode: settings.credentialStore,
          dataDir: ctx.paths().dataDir,
          // -q: only data and errors; the one-time warning waits for a run without it.
          warn: ctx.globals.quiet ? undefined : (message) => io.err(`warning: ${message}`),
        });
      }),

    http: () =>
      once('http', async () => {
        const { HttpClient } = await import('./runtime.js');
        const settings = await ctx.settings();
        const http = new HttpClient({
          baseUrl: await ctx.baseUrl(),
          timeoutMs: settings.timeoutMs,
          retries: settings.retries,
          userAgent: `trackctl/${version}`,
          trace: ctx.globals.verbose ? (line) => io.err(line) : undefined,
        });
        ctx.onDispose(() => http.close());
        return http;
      }),

    session: () =>
      once('session', async () => {
        const { createSession, signInOver } = await import('./runtime.js');
        const settings = await ctx.settings();
        return createSession({
          signIn: signInOver(await ctx.http()),
          profile: settings.profile,
          clientId: settings.clientId,
          sandbox: settings.sandbox,
          env: ctx.env,
          now: () => ctx.clock.now(),
          secrets: () => ctx.secrets(),
          dataDir: ctx.paths().dataDir,
        });
      }),

    api: () =>
      once('api', async () => {
        const { createApi } = await import('./runtime.js');
        const settings = await ctx.settings();
        return createApi(await ctx.http(), await ctx.session(), settings.shareUrl);
      }),

    async output(opts) {
      const { OUTPUT_FORMATS, LIST_FORMATS } = await import('./io/formats/output.js');
      if (opts?.list === undefined) {
        const { format, out } = await ctx.outputAs<OutputFormat>(OUTPUT_FORMATS, opts);
        return { ...out, format };
      }
      // A list: -o wide and -o name are tables of another shape.
      const { format, out } = await ctx.outputAs(LIST_FORMATS, opts);
      if (format === 'wide' || format === 'name') return { ...out, format: 'table', list: { ...opts.list, shape: format } };
      return { ...out, format, list: opts.list };
    },

    async outputAs(allowed, opts) {
      const { parseFormatFrom, parseFields, resolveScript } = await import('./io/formats/output.js');
      const settings = await ctx.settings();
      const requested = ctx.globals.output ?? (env.TRACKCTL_OUTPUT || undefined) ?? settings.output;
      const fields = parseFields(ctx.globals.fields);
      const unknown = opts?.fields && fields?.filter((f) => !opts.fields?.includes(f));
      if (unknown && unknown.length > 0) {
        throw new UsageError(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: choose from ${opts?.fields?.join(', ')}`, {
          hint: 'Nested or computed values: -o custom-columns=HEADER:.path,… or --jq EXPR',
        });
      }
      const color = colorWanted(io.stdoutIsTTY, env, !ctx.globals.color);
      const now = (): number => clock.now();
      const { jq, template, raw } = ctx.globals;
      const variables = [
        ...(ctx.globals.arg ?? []).map(([name, value]) => ({ kind: 'arg' as const, name, value })),
        ...(ctx.globals.argjson ?? []).map(([name, value]) => ({ kind: 'argjson' as const, name, value })),
      ];
      // The invocation's zone (the zone rule) is jq's local time too (localtime, strflocaltime).
      const timeZone = await ctx.timeZone();
      const scripted = await resolveScript(
        { jq, template, variables, env, zone: timeZone, flag: ctx.globals.output, requested, fields: fields !== undefined, raw, tty: io.stdoutIsTTY, color, now },
        allowed,
      );
      const format = parseFormatFrom(scripted?.format ?? requested ?? 'table', allowed);
      const out: OutputOptions = { io, format: 'table', fields, header: ctx.globals.header, color, tty: io.stdoutIsTTY, now, timeZone, script: scripted?.script };
      return { format, out };
    },

    interactive() {
      if (!ctx.globals.input) return false;
      if (env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false') return false;
      return io.stdinIsTTY && io.stderrIsTTY;
    },

    onDispose(fn) {
      disposers.push(fn);
    },

    async dispose() {
      for (const fn of disposers.reverse()) {
        try {
          await fn();
        } catch {
          // Cleanup must not mask the command's own outcome.
        }
      }
      disposers.length = 0;
    },
  };
  return ctx;
}

/** The profile selected by `config use`, read without loading conf (start-up). */
function readCurrentProfile(ctx: Context): string | undefined {
  try {
    const raw = JSON.parse(readFileSync(join(ctx.paths().configDir, 'config.json'), 'utf8')) as { 'current-profile'?: unknown };
    const name = raw['current-profile'];
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}
