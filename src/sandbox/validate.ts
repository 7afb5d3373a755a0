/** Input validation helpers: each throws a SandboxError naming the field at fault. */
import { badRequest, invalidValue } from './errors.js';

export type Body = Record<string, unknown>;

/** The request body as an object; `undefined` (no body) becomes {} only when `optional`. */
export function objectBody(body: unknown, optional = false): Body {
  if (body === undefined && optional) return {};
  if (body === undefined) throw badRequest('request body is required: a JSON object');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('request body must be a JSON object');
  }
  return body as Body;
}

/** Reject any field outside `allowed`, naming the first one. */
export function onlyFields(body: Body, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw badRequest(`unknown field "${key}" (accepted: ${allowed.join(', ')})`, key);
    }
  }
}

export function requiredString(body: Body, field: string): string {
  const v = body[field];
  if (v === undefined || v === null) throw badRequest(`${field} is required`, field);
  if (typeof v !== 'string') throw badRequest(`${field} must be a string, got ${typeName(v)}`, field);
  if (v.trim() === '') throw invalidValue(`${field} must not be empty`, field);
  return v;
}

export function optionalString(body: Body, field: string): string | undefined {
  if (body[field] === undefined) return undefined;
  return requiredString(body, field);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function email(body: Body, field: string): string {
  const v = requiredString(body, field);
  if (!EMAIL.test(v)) throw invalidValue(`${field} "${v}" is not an e-mail address`, field);
  return v;
}

const PHONE = /^\+?[0-9][0-9 ()./-]{2,24}$/;
export function phone(body: Body, field: string): string | undefined {
  const v = optionalString(body, field);
  if (v !== undefined && !PHONE.test(v)) throw invalidValue(`${field} "${v}" is not a telephone number`, field);
  return v;
}

/** An integer given as a JSON integer or a string of digits (the interface allows both for ids and timestamps). */
export function intLike(body: Body, field: string, min = 0): number {
  const v = body[field];
  if (v === undefined || v === null) throw badRequest(`${field} is required`, field);
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) n = Number(v);
  else throw badRequest(`${field} must be an integer or a string of digits, got ${JSON.stringify(v)}`, field);
  if (!Number.isSafeInteger(n)) throw badRequest(`${field} must be an integer, got ${JSON.stringify(v)}`, field);
  if (n < min) throw invalidValue(`${field} must be at least ${min}, got ${n}`, field);
  return n;
}

/** 0 or 1 as a JSON integer. */
export function flag(body: Body, field: string): 0 | 1 {
  const v = body[field];
  if (typeof v !== 'number') throw badRequest(`${field} must be the integer 0 or 1, got ${JSON.stringify(v)}`, field);
  if (v !== 0 && v !== 1) throw invalidValue(`${field} must be 0 or 1, got ${v}`, field);
  return v;
}

/** A positive integer id from a path segment. */
export function pathId(raw: string, field: string): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < 1) {
    throw badRequest(`${field} must be a positive integer, got "${raw}"`, field);
  }
  return Number(raw);
}

/** A comma-separated list of positive integer ids from a path segment (duplicates collapse). */
export function pathIdList(raw: string, field: string): number[] {
  const parts = raw.split(',');
  const ids: number[] = [];
  for (const p of parts) {
    const id = pathId(p.trim(), field);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
