/**
 * Field readers for the fleet file: each reads one value, and on a bad one records
 * a problem with its path and returns undefined, so a file reports every problem at once.
 */
import { parseTime } from '../io/format-time.js';
import { TrackctlError } from '../errors.js';
import type { Expiry, Problem } from './format.js';
import { keyProblem } from '../api/keys.js';

export type Obj = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()./-]{2,24}$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export class Reader {
  readonly problems: Problem[] = [];

  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  object(value: unknown, path: string): Obj | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Obj;
    this.add(path, `must be a mapping, got ${kindOf(value)}`);
    return undefined;
  }

  /** Unknown fields are errors: a typo must not silently become "not managed". */
  onlyFields(obj: Obj, path: string, allowed: readonly string[]): void {
    for (const key of Object.keys(obj)) {
      if (!allowed.includes(key)) this.add(path === '(file)' ? key : `${path}.${key}`, `unknown field; expected one of: ${allowed.join(', ')}`);
    }
  }

  list(value: unknown, path: string): unknown[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) return value;
    this.add(path, `must be a list, got ${kindOf(value)}`);
    return undefined;
  }

  /** A name: non-empty text, no control characters, no surrounding spaces (the service would keep them and every run would differ). */
  text(obj: Obj, field: string, path: string, required = true): string | undefined {
    const value = obj[field];
    const at = `${path}.${field}`;
    if (value === undefined || value === null) {
      if (required) this.add(at, 'required');
      return undefined;
    }
    if (typeof value !== 'string') {
      this.add(at, `must be a string, got ${kindOf(value)}${typeof value === 'number' ? ' (quote it)' : ''}`);
      return undefined;
    }
    if (value.trim() === '') return this.fail(at, 'must not be empty');
    if (value !== value.trim()) return this.fail(at, 'must not start or end with spaces');
    if (CONTROL.test(value)) return this.fail(at, 'must not contain control characters');
    return value;
  }

  /**
   * trackerID / uniqueID: opaque keys, percent-encoded in paths (see keyProblem). Numbers are
   * refused: YAML drops leading zeros and big digits.
   */
  key(obj: Obj, field: string, path: string): string | undefined {
    const value = obj[field];
    const at = `${path}.${field}`;
    if (value === undefined || value === null) return this.fail(at, 'required');
    if (typeof value !== 'string') return this.fail(at, `must be a string, got ${kindOf(value)}${typeof value === 'number' ? ' (quote it)' : ''}`);
    const problem = keyProblem(value);
    if (problem !== undefined) return this.fail(at, problem);
    return value;
  }

  email(value: unknown, at: string): string | undefined {
    if (typeof value !== 'string') return this.fail(at, `must be an e-mail address string, got ${kindOf(value)}`);
    if (!EMAIL.test(value)) return this.fail(at, `"${value}" is not an e-mail address`);
    return value;
  }

  phone(obj: Obj, field: string, path: string): string | undefined {
    const value = this.text(obj, field, path, false);
    if (value !== undefined && !PHONE.test(value)) return this.fail(`${path}.${field}`, `"${value}" is not a telephone number`);
    return value;
  }

  bool(obj: Obj, field: string, path: string): boolean | undefined {
    const value = obj[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    return this.fail(`${path}.${field}`, `must be true or false, got ${kindOf(value)}`);
  }

  oneOf<T extends string>(obj: Obj, field: string, path: string, allowed: readonly T[]): T | undefined {
    const value = this.text(obj, field, path);
    if (value === undefined) return undefined;
    const found = allowed.find((a) => a === value);
    if (found === undefined) return this.fail(`${path}.${field}`, `must be one of: ${allowed.join(', ')}`);
    return found;
  }

  /** A list of names (groups) or e-mails; repeats are dropped, order does not matter. */
  names(obj: Obj, field: string, path: string, email = false): string[] | undefined {
    const items = this.list(obj[field], `${path}.${field}`);
    if (items === undefined) return obj[field] === null ? [] : undefined;
    const out: string[] = [];
    items.forEach((item, i) => {
      const at = `${path}.${field}[${i}]`;
      const value = email ? this.email(item, at) : this.text({ v: item }, 'v', at);
      if (value !== undefined && !out.includes(value)) out.push(value);
    });
    return out;
  }

  /** never, an ISO 8601 date-time, or unix seconds. A time in the past is accepted (see docs). */
  expiry(obj: Obj, field: string, path: string): Expiry | undefined {
    const value = obj[field];
    const at = `${path}.${field}`;
    if (value === undefined || value === null) return undefined;
    if (value === 'never') return 'never';
    if (typeof value === 'number') {
      if (Number.isInteger(value) && value > 0) return value;
      return this.fail(at, 'must be never, an ISO 8601 time or whole unix seconds');
    }
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
      try {
        // A fleet file means the same on every machine that applies it: a time without an offset is UTC.
        return Math.floor(parseTime(value, 0, { zone: 'UTC' }));
      } catch (err) {
        if (!(err instanceof TrackctlError)) throw err;
      }
    }
    return this.fail(at, `"${String(value)}" is not never, an ISO 8601 time (2026-12-31T00:00:00Z) or unix seconds`);
  }

  private fail(at: string, message: string): undefined {
    this.add(at, message);
    return undefined;
  }
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return typeof value === 'string' ? `"${value}"` : `${typeof value} ${String(value)}`;
}
