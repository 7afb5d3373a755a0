/**
 * GET /_sandbox/truth/<did>?from=&to=&limit= — what a unit really did (its trips, stops,
 * silences, jumps, odometer resets and speeding), straight from the plan its history is
 * generated from, so tests can check what trackctl computes from the history. Not part
 * of the service's interface: a control endpoint (no auth, never faulted, not logged).
 * Here the request is read and checked; truth.ts computes the answer.
 */
import { DAY } from '../unit-profile.js';
import { badRequest, invalidValue, notFound, SandboxError } from '../errors.js';
import { DEFAULT_LIMIT, unitTruth } from '../truth.js';
import { json, type TextReply } from '../http.js';
import type { Db } from '../service/db.js';

/** The widest window one request may ask for. */
const MAX_SPAN = 400 * DAY;

function query(url: string): Record<string, string> {
  const q: Record<string, string> = {};
  const text = url.split('?')[1];
  if (text) for (const [k, v] of new URLSearchParams(text)) q[k] = v;
  return q;
}

function timeParam(q: Record<string, string>, name: string, fallback: number): number {
  const v = q[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw badRequest(`${name} must be a unix timestamp in seconds, got "${v}"`, name);
  return Number(v);
}

export function truthReply(db: Db, method: string, parts: string[], url: string): TextReply {
  if (method !== 'GET') throw new SandboxError(405, 'method_not_allowed', `${method} /_sandbox/truth/<did> is not supported`, undefined, { Allow: 'GET' });
  if (parts.length !== 3 || !/^\d+$/.test(parts[2] as string)) throw badRequest('use GET /_sandbox/truth/<did>?from=<unix s>&to=<unix s>', 'id');
  const did = Number(parts[2]);
  const u = db.state.units[did];
  if (!u) throw notFound(`unit ${did} not found`, 'id');
  const q = query(url);
  for (const k of Object.keys(q)) if (k !== 'from' && k !== 'to' && k !== 'limit') throw badRequest(`unknown parameter "${k}" (known: from, to, limit)`, k);
  const rawLimit = q.limit === undefined || q.limit === '' ? String(DEFAULT_LIMIT) : q.limit;
  const limit = Number(rawLimit);
  if (!/^\d+(\.\d+)?$/.test(rawLimit) || !(limit > 0 && limit <= 400)) throw badRequest(`limit must be a speed in km/h above 0 and up to 400, got "${rawLimit}"`, 'limit');
  const now = db.now();
  const to = timeParam(q, 'to', now);
  const from = timeParam(q, 'from', Math.max(u.histFrom, to - DAY));
  if (from > to) throw invalidValue(`from (${from}) is after to (${to})`, 'from');
  if (to - from > MAX_SPAN) throw invalidValue(`the window is longer than ${MAX_SPAN / DAY} days`, 'to');
  return json(200, unitTruth(db.state.seed, u, from, to, now, limit));
}
