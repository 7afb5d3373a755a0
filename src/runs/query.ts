/** One history request of a unit, its reports handed to `write` a reply chunk at a time, through the unit's cursor when it has one. */
import type { Api } from '../api/client.js';
import { openHistory, type HistoryItem, type HistoryQuery, type HistoryReading } from '../api/history.js';
import { Poll, type Cursor } from './cursor.js';

export type WriteReports = (items: readonly HistoryItem[]) => Promise<void>;

/** Streams one reply into `write`; returns the service's clock (Date header) when it gave one. */
export async function streamWindow(api: Api, did: number, query: HistoryQuery, write: WriteReports, reading: HistoryReading = {}): Promise<number | undefined> {
  const reply = await openHistory(api, did, query, reading);
  for await (const batch of reply.batches) await write(batch);
  return reply.serverTime;
}

/**
 * The unit's next reply from where its cursor stands, each report once (a report of the
 * cursor's last reply is left out); the cursor moves on only when the reply was read whole.
 * `keepPrinted`: a reply that fails part-way was printed as far as it went (a stream), so
 * its reports are not printed again; the time stays.
 */
export async function pollUnit(
  api: Api,
  did: number,
  cursor: Cursor,
  origin: HistoryQuery,
  reportTypes: readonly string[] | undefined,
  write: WriteReports,
  reading: HistoryReading = {},
  keepPrinted = false,
  proven?: number,
): Promise<number | undefined> {
  const query = cursor.next(origin, reportTypes);
  const current = new Poll();
  try {
    const serverTime = await streamWindow(api, did, query, (batch) => write(current.fresh(batch, cursor.seen)), reading);
    cursor.commit(current, query, serverTime, proven);
    return serverTime;
  } catch (err) {
    if (keepPrinted) cursor.salvage(current);
    throw err;
  }
}
