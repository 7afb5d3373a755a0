/** --raw: one unit's reply as the service sent it, streamed (stripped of control sequences on a terminal). */
import { StringDecoder } from 'node:string_decoder';
import type { Api } from '../../api/client.js';
import { historyPath, type HistoryQuery } from '../../api/history.js';
import { NetworkError } from '../../errors.js';
import { sanitizeText } from '../../sanitize.js';
import type { IO } from '../../io/delivery/streams.js';

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
