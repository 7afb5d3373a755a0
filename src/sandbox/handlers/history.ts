/**
 * GET /reports/history/<id>/[from:<ts>/][to:<ts>/][lastQueryTime:<ts>/][reportTypes:<t1,t2>/]
 * Streams `{features: [...], success}`, generating reports on the fly in ~64 KB chunks with backpressure.
 */
import { badRequest, invalidValue, notFound } from '../errors.js';
import { planDay } from '../drive.js';
import { dayOf } from '../unit-profile.js';
import { featureJson, REPORT_TYPES, reportFromPlan } from '../history.js';
import { MAX_DELAY, movingAt, receivedOf, reportDates } from '../report-dates.js';
import { ChunkBuffer, type RequestCtx, type StreamReply } from '../http.js';
import type { Route } from '../http.js';
import { pathId } from '../validate.js';

/** A unit that exists only for history benchmarks: its reports are numbered, not stored. */
export const BENCH_UNIT_ID = 900000001;
const SUCCESS = 'Reports have been successfully retrieved.';
const ORDER = ['from', 'to', 'lastQueryTime', 'reportTypes'] as const;
type SegmentName = (typeof ORDER)[number];

export interface HistoryQuery {
  from?: number;
  to?: number;
  lastQueryTime?: number;
  reportTypes?: Set<string>;
}

/** Parse the optional segments after the unit id; anything out of order, repeated, malformed or unknown is a 400 naming it. */
export function parseHistorySegments(segments: string[]): HistoryQuery {
  const q: HistoryQuery = {};
  let last = -1;
  const seen = new Set<string>();
  for (const seg of segments) {
    const colon = seg.indexOf(':');
    const name = colon < 0 ? seg : seg.slice(0, colon);
    const value = colon < 0 ? undefined : seg.slice(colon + 1);
    const idx = ORDER.indexOf(name as SegmentName);
    if (idx < 0) throw badRequest(`unknown history segment "${seg}" (expected from:, to:, lastQueryTime:, reportTypes: in that order)`, name);
    if (seen.has(name)) throw badRequest(`history segment "${name}" given twice`, name);
    if (idx < last) throw badRequest(`history segment "${name}" is out of order (order: ${ORDER.join(', ')})`, name);
    seen.add(name);
    last = idx;
    if (value === undefined || value === '') throw badRequest(`history segment "${name}" needs a value, e.g. ${name}:1700000000`, name);
    if (name === 'reportTypes') {
      const types = value.split(',');
      for (const t of types) {
        if (!(REPORT_TYPES as readonly string[]).includes(t)) {
          throw badRequest(`unknown report type "${t}" (known: ${REPORT_TYPES.join(', ')})`, 'reportTypes');
        }
      }
      q.reportTypes = new Set(types);
    } else {
      if (!/^\d+$/.test(value)) throw badRequest(`${name} must be a unix timestamp in seconds, got "${value}"`, name);
      q[name as Exclude<SegmentName, 'reportTypes'>] = Number(value);
    }
  }
  if (q.to !== undefined && q.from === undefined) throw badRequest('to: needs from: before it', 'to');
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
    throw invalidValue(`from (${q.from}) is after to (${q.to})`, 'from');
  }
  return q;
}

function streamReply(produce: (buf: ChunkBuffer) => Promise<void>): StreamReply {
  return {
    kind: 'stream',
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    async produce(write) {
      const buf = new ChunkBuffer(write);
      await write('{"features":[');
      await produce(buf);
      await buf.flush();
      await write(`],"success":"${SUCCESS}"}`);
    },
  };
}

function unitHistory(c: RequestCtx, did: number, q: HistoryQuery): StreamReply {
  const { db } = c;
  const u = db.state.units[did];
  if (!u) throw notFound(`unit ${did} not found`, 'id');
  const seed = db.state.seed;
  const aid = db.state.aid;
  const nameJson = JSON.stringify(u.name);
  const now = db.now();
  let lo = Math.max(q.from ?? -Infinity, u.histFrom - 1);
  if (q.lastQueryTime !== undefined) lo = Math.max(lo, q.lastQueryTime - MAX_DELAY - 60);
  const hi = Math.min(q.to ?? Infinity, now, u.histUntil ?? Infinity);
  return streamReply(async (buf) => {
    if (hi <= lo) return;
    let first = true;
    const dates: number[] = [];
    // a day at a time: a day's dates are a few hundred numbers, its reports are made one by one
    for (let d = dayOf(seed, lo + 1); d <= dayOf(seed, hi); d++) {
      const plan = planDay(seed, u, d);
      dates.length = 0;
      reportDates(seed, did, plan, lo, hi, dates);
      for (const date of dates) {
        const received = receivedOf(seed, did, date, movingAt(plan, date));
        if (received > now) continue;
        if (q.lastQueryTime !== undefined && received <= q.lastQueryTime) continue;
        const r = reportFromPlan(seed, u, plan, date);
        if (q.reportTypes && !q.reportTypes.has(r.reportType)) continue;
        const pending = buf.push((first ? '' : ',') + featureJson(aid, did, nameJson, r));
        first = false;
        if (pending) await pending;
      }
    }
  });
}

function benchHistory(c: RequestCtx, q: HistoryQuery): StreamReply {
  const n = c.db.benchReports;
  const base = c.db.state.epoch - n; // report i is dated base + i and received at once
  const now = c.db.now();
  const nameJson = JSON.stringify('Bench unit');
  const aid = c.db.state.aid;
  let iLo = 0;
  let iHi = Math.min(n - 1, now - base);
  if (q.from !== undefined) iLo = Math.max(iLo, q.from - base + 1);
  if (q.lastQueryTime !== undefined) iLo = Math.max(iLo, q.lastQueryTime - base + 1);
  if (q.to !== undefined) iHi = Math.min(iHi, q.to - base);
  // The hot loop only splices numbers into precomputed text: a million features in a few seconds.
  const head = `{"type":"Feature","properties":{"aid":${aid},"did":${BENCH_UNIT_ID},"name":${nameJson},"availability":"available","lat":`;
  const mid = ',"alt":1600,"speed":42.5,"heading":90,"source":"gps","address":"1 Bench St, Denver, CO","date":';
  const tails = new Map<string, string>();
  for (const t of REPORT_TYPES) {
    const [value, message] = t === 'report' ? ['periodic', 'Periodic position report'] : ['bench', `Bench ${t} event`];
    tails.set(t, `,"precision":5,"satellites":9,"temperature":null,"reportType":"${t}","reportValue":"${value}","message":"${message}"},"geometry":{"type":"Point","coordinates":[`);
  }
  return streamReply(async (buf) => {
    let first = true;
    for (let i = iLo; i <= iHi; i++) {
      const type = i % 10 === 0 ? (REPORT_TYPES[(i / 10) % REPORT_TYPES.length] as string) : 'report';
      if (q.reportTypes && !q.reportTypes.has(type)) continue;
      const lat = (397000 + (i % 1000)) / 10000;
      const lng = -(1049000 + (i % 777)) / 10000;
      const text = `${first ? '' : ','}${head}${lat},"lng":${lng}${mid}${base + i},"battery":${100 - (i % 90)},"odometer":${1000 + Math.floor(i / 100)}${tails.get(type) as string}${lng},${lat}]}}`;
      first = false;
      const pending = buf.push(text);
      if (pending) await pending;
    }
  });
}

export const historyRoutes: Route[] = [
  {
    method: 'GET', pattern: '/reports/history/:id/*segments', auth: 'session',
    handler: (c) => {
      const id = pathId(c.params.id as string, 'id');
      const q = parseHistorySegments(c.rest);
      return id === BENCH_UNIT_ID ? benchHistory(c, q) : unitHistory(c, id, q);
    },
  },
];
