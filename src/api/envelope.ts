/**
 * Unwrapping the service's envelope: `result` keyed by id with `resultCount`,
 * `id` on creates, and the extra nested `result` of membership replies.
 */
import { ApiError, NotFoundError } from '../errors.js';
import { collectionValues, tolerantRecord, toNumber } from './tolerant.js';
import type { HttpResponse } from './http.js';
import { excerpt, parseJsonObject } from './reply.js';

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

export function shapeError(res: HttpResponse, what: string): ApiError {
  return new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): ${what}: ${excerpt(res.text)}`, res.status);
}

/**
 * Every reply of the service carries `success`, a text (or, failing, `error`, which
 * parseJsonObject turns into its error already), and the field its endpoint gives (`result`
 * on lists and gets: `carries`, one of them at least). JSON without them is not the
 * service's reply (a proxy's or a gateway's page, `{"success":true}`): reading a missing
 * `result` as "no records" would list nothing with exit 0, and `apply` would plan to
 * create every unit.
 */
export function checkEnvelope(res: HttpResponse, body: Record<string, unknown>, carries: readonly string[] = []): void {
  const named = carries.map((key) => `"${key}"`);
  const carried = carries.length === 0 || carries.some((key) => key in body);
  if (!('success' in body) && !carried) throw shapeError(res, `neither ${words(['"success"', ...named, '"error"'], 'nor')}`);
  if (typeof body.success !== 'string') throw shapeError(res, 'success' in body ? '"success" is not a text' : 'no "success"');
  if (!carried) throw shapeError(res, `no ${words(named, 'or')}`);
}

/** "a", "a or b", "a, b or c". */
function words(list: readonly string[], last: string): string {
  return list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} ${last} ${list[list.length - 1]}`;
}

/**
 * The records of `result`, in any JSON form of a collection (see collectionValues):
 * an object keyed by id, an array, or null for none.
 */
function resultRecords(res: HttpResponse, body: Record<string, unknown>, nested: boolean): unknown[] {
  checkEnvelope(res, body, ['result']);
  let result = body.result;
  // Membership replies wrap the record once more: {result: {result: {<id>: record}}}.
  if (nested && isObject(result) && 'result' in result && Object.keys(result).length === 1) result = result.result;
  const records = collectionValues(result);
  if (records === undefined) throw shapeError(res, '"result" is not a collection');
  return records;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function decodeList<T>(res: HttpResponse, idKey: string): Listed<T> {
  const body = parseJsonObject(res);
  const normalise = tolerantRecord(idKey);
  const records = resultRecords(res, body, false).map((rec) => {
    if (!isObject(rec) || rec[idKey] === undefined || rec[idKey] === null) throw shapeError(res, `a record without "${idKey}"`);
    return normalise(rec) as T;
  });
  return { records, raw: res.text };
}

export function decodeOne<T>(res: HttpResponse, idKey: string, opts: { nested?: boolean } = {}): One<T> {
  const body = parseJsonObject(res);
  const records = resultRecords(res, body, opts.nested ?? false);
  // A 2xx with an empty result: the record is not there, whatever the status says.
  if (records.length === 0) throw new NotFoundError(`the service returned no record (status ${res.status}, empty "result")`);
  const first = records[0];
  if (!isObject(first) || first[idKey] === undefined || first[idKey] === null) throw shapeError(res, `no record with "${idKey}"`);
  const one: One<T> = { record: tolerantRecord(idKey)(first) as T, raw: res.text };
  const id = toNumber(body.id);
  if (typeof id === 'number' && Number.isSafeInteger(id)) one.id = id;
  return one;
}

/**
 * A reply that carries only `success`. An empty body is a success too (a 204 from
 * a gateway in front of the service); JSON must have the envelope (checkEnvelope).
 */
export function decodeSuccess(res: HttpResponse): string {
  if (res.text.trim() === '') return '';
  const body = parseJsonObject(res);
  checkEnvelope(res, body);
  return typeof body.success === 'string' ? body.success : '';
}
