/**
 * Ids and names from the service, for completing an id word. Runs in its own
 * context whose stderr is silent, never prompts (--no-input), gives up after
 * ~1.5 s (TRACKCTL_COMPLETE_TIMEOUT) with no retries, and swallows every failure:
 * a completion must never print an error or hang the shell. Loaded only when an id
 * is being completed.
 */
import { parseDurationMs } from '../config/schema.js';
import { createContext, type Context } from '../context.js';
import type { IO } from '../io/delivery/streams.js';
import type { Candidate, LineGlobals } from './engine.js';
import type { IdKind } from './values.js';

const ID_DEADLINE_MS = 1500;

/** How long completing an id may wait: TRACKCTL_COMPLETE_TIMEOUT (a slow link, a busy machine), else ID_DEADLINE_MS. */
function deadlineMs(env: NodeJS.ProcessEnv): number {
  try {
    const ms = env.TRACKCTL_COMPLETE_TIMEOUT ? parseDurationMs(env.TRACKCTL_COMPLETE_TIMEOUT) : ID_DEADLINE_MS;
    return ms > 0 ? ms : ID_DEADLINE_MS;
  } catch {
    return ID_DEADLINE_MS; // a completion prints no error
  }
}

interface Named {
  id: string | number;
  name?: unknown;
}

async function listOf(ctx: Context, kind: IdKind): Promise<Named[]> {
  const api = await ctx.api();
  const pick = <T extends object>(records: T[], key: keyof T): Named[] =>
    records.map((r) => ({ id: r[key] as string | number, name: (r as { name?: unknown }).name }));
  switch (kind) {
    case 'device':
    case 'sensor': {
      const { listUnits } = await import('../api/units.js');
      return pick((await listUnits(api, kind === 'device' ? 'devices' : 'sensors')).records, 'did');
    }
    case 'user': {
      const { listUsers } = await import('../api/users.js');
      return pick((await listUsers(api)).records, 'uid');
    }
    case 'group': {
      const { listGroups } = await import('../api/groups.js');
      return pick((await listGroups(api)).records, 'gid');
    }
    case 'share': {
      const { listShares } = await import('../api/shares.js');
      return pick((await listShares(api)).records, 'sid');
    }
    case 'unit': {
      const { getAllUnits } = await import('../api/all-units.js');
      const all = await getAllUnits(api);
      return [...pick(all.devices, 'did'), ...pick(all.sensors, 'did'), ...pick(all.trackedUsers, 'uid'), ...pick(all.dispatchers, 'uid')];
    }
  }
}

function silent(io: IO): IO {
  return { ...io, err: () => undefined };
}

/** Ids of `kind` starting with `partial`, each prefixed with `prefix`; [] on any failure or after the deadline. */
export async function fetchIds(
  parent: Context,
  want: { kind: IdKind; prefix: string; partial: string },
  globals: LineGlobals,
): Promise<Candidate[]> {
  const ctx = createContext(silent(parent.io), parent.env, parent.version, parent.clock);
  const ms = deadlineMs(parent.env);
  ctx.globals = { header: true, color: false, input: false, timeout: `${ms}ms`, retries: '0', ...globals };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Named[]>((resolve) => {
    timer = setTimeout(() => resolve([]), ms);
    timer.unref();
  });
  try {
    const records = await Promise.race([listOf(ctx, want.kind).catch(() => [] as Named[]), deadline]);
    const seen = new Set<string>();
    const out: Candidate[] = [];
    for (const r of records) {
      const id = String(r.id);
      if (seen.has(id) || !id.startsWith(want.partial)) continue;
      seen.add(id);
      out.push({ value: want.prefix + id, ...(typeof r.name === 'string' && r.name !== '' ? { description: r.name } : {}) });
    }
    return out;
  } finally {
    clearTimeout(timer);
    void ctx.dispose();
  }
}
