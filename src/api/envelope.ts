/**
 * Unwrapping the service's envelope: `result` keyed by id with `resultCount`,
 * `id` on creates, and the extra nested `result` of membership replies.
 */
import { ApiError } from '../errors.js';
import type { HttpResponse } from './http.js';
import { excerpt, parseJsonObject } from './client.js';

export interface Listed<T> {
  records: T[];
  raw: string;
}

export interface One<T> {
  record: T;
  raw: string;
  /** The new record's id, on creates. */
  id?: number;
}

function shapeError(res: HttpResponse, what: string): ApiError {
  return new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): ${what}: ${excerpt(res.text)}`, res.status);
}

function resultObject(res: HttpResponse, body: Record<string, unknown>, nested: boolean): Record<string, unknown> {
  let result = body.result;
  // Membership replies wrap the record once more: {result: {result: {<id>: record}}}.
  if (nested && isObject(result) && isObject(result.result)) result = result.result;
  if (!isObject(result)) throw shapeError(res, 'no "result" object');
  return result;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function decodeList<T>(res: HttpResponse, idKey: string): Listed<T> {
  const body = parseJsonObject(res);
  const result = resultObject(res, body, false);
  const records = Object.values(result).map((rec) => {
    if (!isObject(rec) || rec[idKey] === undefined) throw shapeError(res, `a record without "${idKey}"`);
    return rec as T;
  });
  return { records, raw: res.text };
}

export function decodeOne<T>(res: HttpResponse, idKey: string, opts: { nested?: boolean } = {}): One<T> {
  const body = parseJsonObject(res);
  const result = resultObject(res, body, opts.nested ?? false);
  const first = Object.values(result)[0];
  if (!isObject(first) || first[idKey] === undefined) throw shapeError(res, `no record with "${idKey}"`);
  const one: One<T> = { record: first as T, raw: res.text };
  if (typeof body.id === 'number') one.id = body.id;
  else if (typeof body.id === 'string' && /^\d+$/.test(body.id)) one.id = Number(body.id);
  return one;
}

/** A reply that carries only `success`. */
export function decodeSuccess(res: HttpResponse): string {
  const body = parseJsonObject(res);
  if (typeof body.success !== 'string') throw shapeError(res, 'no "success" message');
  return body.success;
}
