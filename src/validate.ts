/** Validation of ids and values before any request is sent: a bad value is exit 2 naming it. */
import { UsageError } from './errors.js';
import { keyProblem } from './api/keys.js';
import { USER_TYPES, type UserType } from './api/users.js';

export { KEY_MAX_LENGTH, keyProblem } from './api/keys.js';

const POSITIVE_INT = /^[1-9]\d{0,15}$/;

export function parseId(value: string, what: string): number {
  const v = value.trim();
  if (!POSITIVE_INT.test(v)) throw new UsageError(`invalid ${what} "${value}": expected a positive integer`);
  return Number(v);
}

/** Accepts "1,2,3" and repeated flags; rejects empties and duplicates are dropped. */
export function parseIdList(values: string[] | string | undefined, what: string): number[] {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  const ids: number[] = [];
  for (const item of list) {
    for (const part of item.split(',')) {
      if (part.trim() === '') throw new UsageError(`invalid ${what} list "${item}": empty entry`);
      const id = parseId(part, what);
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

export function requireText(value: string | undefined, flag: string, what = flag): string {
  if (value === undefined) throw new UsageError(`missing ${flag}`);
  const v = value.trim();
  if (v === '') throw new UsageError(`invalid ${what}: must not be empty`);
  if (/[\u0000-\u001f\u007f]/.test(v)) throw new UsageError(`invalid ${what} "${JSON.stringify(v).slice(1, -1)}": control characters are not allowed`);
  return v;
}

/** A uniqueID or trackerID from a flag or an import file: returned unchanged, refused only when it cannot be sent. */
export function parseKey(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`missing ${flag}`);
  const problem = keyProblem(value);
  if (problem !== undefined) throw new UsageError(`invalid ${flag} "${JSON.stringify(value).slice(1, -1)}": ${problem}`);
  return value;
}

export function parsePhone(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^\+?[0-9][0-9 ()-]{3,20}$/.test(v)) throw new UsageError(`invalid --sim-phone "${value}": expected a telephone number such as +15551234567`);
  return v;
}

export function exclusive(flags: Record<string, unknown>): void {
  const set = Object.entries(flags).filter(([, v]) => v !== undefined && v !== false);
  if (set.length > 1) throw new UsageError(`${set.map(([k]) => k).join(' and ')} cannot be used together`);
}

export const DEFAULT_CONCURRENCY = 8;
/** --concurrency N of the bulk commands (import, apply, history, report): requests in flight, 1–64. */
export const MAX_CONCURRENCY = 64;

/** trackedUser | dispatcher, matched case-insensitively ("dispatcher", "TrackedUser"). */
export function parseUserType(value: string, flag = '--type'): UserType {
  const wanted = value.trim().toLowerCase();
  const type = USER_TYPES.find((t) => t.toLowerCase() === wanted);
  if (!type) throw new UsageError(`invalid ${flag} "${value}": use one of ${USER_TYPES.join(', ')}`);
  return type;
}

/** A plain mailbox address: local@domain.tld, no spaces, brackets or control characters. */
export function parseEmail(value: string): string {
  const v = value.trim();
  if (v.length > 254 || !/^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(v)) {
    throw new UsageError(`invalid --email "${JSON.stringify(value).slice(1, -1)}": expected an address such as name@example.com`);
  }
  return v;
}
