/**
 * An inter-process lock on a file, so that parallel trackctl processes renew a
 * token once: the holder refreshes and saves, the others wait, then re-read.
 *
 * Acquire = our pid, start time, host and a random token written whole to a file beside
 * the lock, then hard-linked to the lock's name (link fails when the name exists): the
 * lock carries its owner from the moment it exists, so a kill at any point (or a
 * full disk) leaves no ownerless lock. Waiters poll with small randomized waits. A
 * lock is stale, and taken at once, when its owner is gone (same host): dead, a zombie
 * not yet reaped, or its pid now another process's (see process-identity.ts); when it names
 * our own pid with another token (a killed run's pid, reused), or when it holds no
 * owner (left by an earlier version, which created the file before writing it) and is
 * older than OWNERLESS_GRACE_MS; or when it has not been touched for `staleMs`: the
 * holder touches it periodically, so a long but live operation is never broken.
 * Release removes the file only if it is still ours; so does SIGINT or SIGTERM when the
 * command does not take the signal itself (signal-cleanup.ts).
 *
 * Why not proper-lockfile (measured, Node 20.20, this machine): it records no owner, so a
 * lock left by a process that was killed (SIGKILL, OOM, a closed CI job) can only go stale
 * by its mtime, and its stale floor is 2 s (default 10 s). After a SIGKILLed holder the
 * next process waited 2366 ms (stale 2000) and 10183 ms (stale 10000) with proper-lockfile,
 * 87 ms with this lock, which sees the holder's pid is gone. `history --checkpoint` is
 * meant to be killed and run again at once, and token renewal runs before every command
 * of a cron job, so that wait is the one thing this lock must not have. proper-lockfile
 * also throws from a timer when it loses its lock (onCompromised), where we want an error
 * in the caller.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, unlink, utimes, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { TrackctlError } from './errors.js';
import { ownId, processAlive as ownerAlive } from './process-identity.js';
import { randomHex } from './random.js';
import { cleanUpOnSignal } from './signal-cleanup.js';

export interface FileLockOptions {
  /** Give up waiting after this long. Default 60 000. */
  timeoutMs?: number;
  /** Break a lock untouched for this long. Default 30 000. */
  staleMs?: number;
}

interface LockOwner {
  pid: number;
  /** The pid's start time where the system tells it (Linux): a reused pid is not taken for the owner. */
  start?: number;
  host: string;
  time: number;
  token: string;
}

/** An ownerless lock younger than this may be an earlier version's, between its create and its write. */
export const OWNERLESS_GRACE_MS = 500;

/** Tokens of the locks this process holds: a lock naming our pid with another token is a killed run's. */
const held = new Set<string>();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: FileLockOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const staleMs = opts.staleMs ?? 30_000;
  const owner: LockOwner = { ...ownId(), host: hostname(), time: Date.now(), token: await randomHex(8) };
  await acquire(lockPath, owner, timeoutMs, staleMs);
  held.add(owner.token);
  const dropOnSignal = cleanUpOnSignal(() => releaseSync(lockPath, owner));
  // Keep the lock fresh while fn runs so nobody takes it for stale.
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => undefined);
  }, Math.max(50, Math.floor(staleMs / 3)));
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    dropOnSignal();
    await release(lockPath, owner);
    held.delete(owner.token);
  }
}

async function acquire(lockPath: string, owner: LockOwner, timeoutMs: number, staleMs: number): Promise<void> {
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  await sweepAsides(lockPath);
  const deadline = Date.now() + timeoutMs;
  let wait = 10;
  for (;;) {
    if (await tryCreate(lockPath, owner)) return;
    const holder = await readHolder(lockPath);
    if (holder !== undefined && (await isStale(lockPath, holder, staleMs))) {
      await breakLock(lockPath, holder.text);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder?.owner ? ` (held by pid ${holder.owner.pid} on ${holder.owner.host})` : '';
      throw new TrackctlError(`timed out after ${timeoutMs} ms waiting for lock ${lockPath}${who}`, {
        hint: `if no other trackctl is running, remove ${lockPath}`,
      });
    }
    await sleep(wait / 2 + Math.random() * wait);
    wait = Math.min(wait * 1.5, 100);
  }
}

async function tryCreate(lockPath: string, owner: LockOwner): Promise<boolean> {
  const aside = `${lockPath}.${owner.pid}-${owner.token}.new`;
  try {
    await writeFile(aside, JSON.stringify(owner), { mode: 0o600, flag: 'w' });
    await link(aside, lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new TrackctlError(`cannot create lock ${lockPath}: ${(err as Error).message}`, { cause: err });
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/** Owner files of runs killed between writing and linking them (`LOCK.<pid>-<token>.new`), and stale locks moved aside. */
async function sweepAsides(lockPath: string): Promise<void> {
  const dir = dirname(lockPath);
  const prefix = `${basename(lockPath)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = /^(?:stale-)?(\d+)-[0-9a-f]+(?:\.new)?$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '')?.[1];
      if (pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid))) await unlink(join(dir, name)).catch(() => undefined);
    }),
  );
}

interface Holder {
  text: string;
  owner: LockOwner | undefined;
  mtimeMs: number;
}

async function readHolder(lockPath: string): Promise<Holder | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    return { text, owner: parseOwner(text), mtimeMs: info.mtimeMs };
  } catch {
    return undefined; // released meanwhile: try again
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.time === 'number' && typeof v.token === 'string') {
      return { pid: v.pid, ...(typeof v.start === 'number' ? { start: v.start } : {}), host: v.host, time: v.time, token: v.token };
    }
  } catch {
    // Empty or half-written: the creator is between open and write.
  }
  return undefined;
}

async function isStale(lockPath: string, holder: Holder, staleMs: number): Promise<boolean> {
  const touched = Math.max(holder.mtimeMs, holder.owner?.time ?? 0);
  if (Date.now() - touched > staleMs) return true;
  const owner = holder.owner;
  if (owner === undefined) return Date.now() - holder.mtimeMs > OWNERLESS_GRACE_MS;
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid ? held.has(owner.token) : ownerAlive(owner)) return false;
  // Re-read: the file may have been replaced by a live process since.
  const again = await readHolder(lockPath);
  return again?.text === holder.text;
}

/** True while a process of that pid runs (on this host): for files that name only their pid (temporaries). */
export function processAlive(pid: number): boolean {
  return ownerAlive({ pid });
}

/**
 * Moves the stale file aside rather than unlinking it, then checks that what
 * was moved is the stale lock we judged; if a live process had taken the lock
 * in between, its file is put back (link fails rather than overwrite).
 */
async function breakLock(lockPath: string, staleText: string): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}-${await randomHex(4)}`;
  try {
    await rename(lockPath, aside);
  } catch {
    return; // someone else broke or released it
  }
  try {
    const moved = await readFile(aside, 'utf8');
    if (moved !== staleText) await link(aside, lockPath).catch(() => undefined);
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/** release(), at once: the process is ending on a signal. */
function releaseSync(lockPath: string, owner: LockOwner): void {
  if (parseOwner(readFileSync(lockPath, 'utf8'))?.token === owner.token) unlinkSync(lockPath);
}

async function release(lockPath: string, owner: LockOwner): Promise<void> {
  const holder = await readHolder(lockPath);
  if (holder?.owner?.token !== owner.token) return; // broken as stale and retaken: not ours
  await unlink(lockPath).catch(() => undefined);
}

/**
 * A checkpoint file used by one run at a time: FILE.lock is held while `fn` runs. A lock
 * held by another live run is not waited out for long: that is exit 1 with a clear message.
 */
export async function withCheckpointLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  let entered = false;
  try {
    return await withFileLock(
      `${file}.lock`,
      () => {
        entered = true;
        return fn();
      },
      { timeoutMs: 1000 },
    );
  } catch (err) {
    if (entered || !(err instanceof TrackctlError) || !err.message.startsWith('timed out')) throw err;
    throw new TrackctlError(`checkpoint ${file} is in use by another trackctl run (${err.message})`, {
      hint: `Wait for it to finish; if none is running, remove ${file}.lock.`,
    });
  }
}
