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

function shapeError(res: HttpResponse, what: string): ApiError {
  return new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): ${what}: ${excerpt(res.text)}`, res.status);
}

/**
 * Every reply of the service carries `success` (or, failing, `error`, which
 * parseJsonObject turns into its error already). JSON with neither is not the
 * service's (a proxy's or a gateway's page): reading its missing `result` as "no
 * records" would list nothing with exit 0, and `apply` would plan to create every unit.
 */
export function checkEnvelope(res: HttpResponse, body: Record<string, unknown>): void {
  if (!('success' in body) && !('result' in body)) throw shapeError(res, 'neither "success", "result" nor "error"');
}

/**
 * The records of `result`, in any JSON form of a collection (see collectionValues):
 * an object keyed by id, an array, or null / absent for none.
 */
function resultRecords(res: HttpResponse, body: Record<string, unknown>, nested: boolean): unknown[] {
  checkEnvelope(res, body);
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
