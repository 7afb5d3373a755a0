/**
 * `history -o html`: a HistorySink that keeps the reports of every unit in the stream
 * (each carries properties.did) and writes one page at the end. Loaded only when
 * -o html is asked for (src/io/pages/geo/sink.ts imports it lazily), with Leaflet.
 */
import type { HistoryItem } from '../../../api/history.js';
import type { OutputOptions } from '../../formats/output.js';
import { HistoryCollector } from './history.js';
import { renderPage } from './page.js';
import { writePage } from './target.js';

/** A HistorySink (src/io/pages/geo/sink.ts checks the shape where it loads this), without importing the module that loads it. */
export class HtmlHistorySink {
  private readonly collector = new HistoryCollector();
  count = 0;
  constructor(private readonly out: OutputOptions) {}

  async write(items: readonly HistoryItem[]): Promise<void> {
    for (const item of items) this.collector.add(item.feature);
    this.count += items.length;
  }

  /** A page is written whole at the end; there is nothing to hand over before. */
  async flush(): Promise<void> {}

  async end(): Promise<void> {
    await writePage(renderPage(this.collector.page(this.out.timeZone)), this.out, 'history');
  }
}
