/** What reads each unit's reply in a history run: the splitter's reader or check (api/feature-splitter.ts). */
import { FeatureCheck, type HistoryReading } from '../../api/history.js';
import { parquetCutReaders } from '../../runs/lake.js';

/**
 * Makes what reads a unit's reply, its module loaded now: before the run's first request, after
 * which a file gets no kept compiled code (bin/trackctl.js). Parquet's cells (`parquetCells`: not
 * for a lake, which spools each unit's reports as text and makes its parts from that) are read
 * as each reply is cut, in place of its check: each byte is looked at once. A poll (`polls`) keys
 * every report (runs/cursor.ts): the point reader reads the key's values with the bytes, in the
 * check's place, where the key would otherwise parse each report whole. Any other reply is
 * checked by the expression.
 */
export async function replyReadings(parquetCells: boolean, polls: boolean): Promise<() => HistoryReading> {
  if (parquetCells) {
    const cutReader = await parquetCutReaders();
    return () => ({ reader: cutReader() });
  }
  if (polls) {
    const { PointReader } = await import('../../api/report-point.js');
    return () => ({ reader: new PointReader() });
  }
  return () => ({ check: new FeatureCheck() });
}
