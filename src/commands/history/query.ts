/** One history request streamed to the output: each chunk's reports are written as they are cut out. */
import { StringDecoder } from 'node:string_decoder';
import type { Api } from '../../api/client.js';
import { historyPath, openHistory, type HistoryQuery } from '../../api/history.js';
import { NetworkError } from '../../errors.js';
import type { HistorySink } from '../../io/geo/sink.js';
import { sanitizeText } from '../../io/sanitize.js';
import type { IO } from '../../io/streams.js';
import type { Poll } from './cursor.js';

export interface Dedupe {
  poll: Poll;
  seen: ReadonlySet<string>;
}

/** Streams one reply into the sink; returns the service's clock (Date header) when it gave one. */
export async function streamQuery(
  api: Api,
  id: number,
  query: HistoryQuery,
  sink: HistorySink,
  dedupe?: Dedupe,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const reply = await openHistory(api, id, query, { signal });
  for await (const batch of reply.batches) {
    await sink.write(dedupe ? dedupe.poll.fresh(batch, dedupe.seen) : batch);
  }
  return reply.serverTime;
}

/** --raw: the body as the service sent it, streamed (stripped of control sequences on a terminal). */
export async function streamRaw(api: Api, id: number, query: HistoryQuery, io: IO): Promise<void> {
  const res = await api.stream({ method: 'GET', path: historyPath(id, query) });
  const decoder = new StringDecoder('utf8');
  const show = (text: string): string => (io.stdoutIsTTY ? sanitizeText(text) : text);
  const chunks = res.body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = (await chunks.next()) as IteratorResult<Buffer>;
      } catch (err) {
        throw new NetworkError(`the connection dropped while reading the history (status ${res.status})`, { cause: err });
      }
      if (next.done) break;
      await io.out(show(decoder.write(next.value)));
    }
    const rest = decoder.end();
    if (rest !== '') await io.out(show(rest));
  } finally {
    res.body.destroy();
  }
}
