/**
 * Parquet's cut reader (lake/parquet/cut-reader.ts) stands in for the splitter's check on the
 * Parquet path: a report it takes must be one JSON.parse takes (an object whose `properties` is
 * an object), and its cells those of the parsed report. Reports broken in one place (a byte
 * dropped, added or changed, the end cut off) among usual ones, read by the learnt shape and by
 * the member reader alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Report, type HistoryItem } from '../../src/api/history.js';
import { ColumnBuffers } from '../../src/lake/parquet/buffers.js';
import { ParquetCutReader } from '../../src/lake/parquet/cut-reader.js';
import { broken, NOISE, seeded, type Random } from '../helpers/messy-json.js';
import { parsedFeature, replyChunk } from '../helpers/report-points.js';

/** Bytes a broken report may gain: the usual ones, a letter of `true` and a non-ASCII one. */
const NOISE_MORE = [...NOISE, 't', 'é'];

/** The bench unit's report, its position, date and battery moving with i; now and then (odd) an odd value or member. */
function usual(r: Random, i: number, odd = true): string {
  const lat = `39.${7000 + (i % 997)}`;
  const lng = `-104.${9000 + (i % 991)}`;
  const props: Array<[string, string]> = [
    ['aid', '1001'], ['did', '900000001'], ['name', '"Bench unit"'], ['availability', '"available"'], ['lat', lat], ['lng', lng], ['alt', '1600'],
    ['speed', '42.5'], ['heading', '90'], ['source', '"gps"'], ['address', '"1 Bench St, Denver, CO"'], ['date', String(1795870760 + i)],
    ['battery', String(100 - (i % 100))], ['odometer', '1000'], ['precision', '5'], ['satellites', '9'], ['temperature', 'null'],
    ['reportType', '"report"'], ['reportValue', '"periodic"'], ['message', '"Periodic position report"'],
  ];
  if (odd && r.chance(0.1)) props[r.int(props.length)]![1] = r.pick(['null', '-0', '0', '1e2', '"x"', '"Straße"', 'true', '[1]', '{"a":1}', '"a\\"b"']);
  if (odd && r.chance(0.03)) props.push(['extra', '1']);
  return `{"type":"Feature","properties":{${props.map(([n, v]) => `"${n}":${v}`).join(',')}},"geometry":{"type":"Point","coordinates":[${lng},${lat}]}}`;
}

/** The report as the splitter's parse gives it, or undefined where it refuses it. */
function parsed(text: string): HistoryItem | undefined {
  const feature = parsedFeature(text);
  return feature && { text, feature, verbatim: true };
}

/** The one row of a buffer, settled: each column's cell (-0 told from 0). */
function rowOf(item: HistoryItem): unknown[] {
  const b = new ColumnBuffers();
  b.append(item);
  b.settle();
  return b.columns.map((c) => {
    const cell = c.defs[0] === 0 ? null : c.kind === 'string' ? c.strings[0] : c.numbers[0];
    return Object.is(cell, -0) ? '-0' : cell;
  });
}

test('a report the cut reader takes is one JSON.parse takes, with the parsed report\'s cells; broken ones are refused', () => {
  let taken = 0;
  let refused = 0;
  let byShape = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const r = seeded(seed);
    const reader = new ParquetCutReader();
    // usual reports (plain: the shape's) and odd ones, one in five broken after the first 80
    const plain = Array.from({ length: 500 }, () => r.chance(0.5));
    const texts = plain.map((p, i) => (i > 80 && r.chance(0.2) ? ((plain[i] = false), broken(r, usual(r, i), NOISE_MORE)) : usual(r, i, !p)));
    // chunks of one to eight reports, as a reply's
    for (let k = 0; k < texts.length; ) {
      const batch = texts.slice(k, k + 1 + r.int(8));
      const { chunk, first } = replyChunk(batch);
      reader.load(chunk);
      let at = first;
      for (const text of batch) {
        const row = reader.read(at);
        const want = parsed(text);
        if (row === undefined) {
          refused++;
          // a usual report is never left to the parse
          assert.ok(!plain[k], `seed ${seed}, report ${k}: refused ${text}`);
        } else {
          taken++;
          // the bytes it took (up to where it says the report ends: a cut-off one may run into the next) are a report JSON.parse takes
          const bytes = chunk.toString('utf8', at, reader.end);
          const same = parsed(bytes);
          assert.ok(same, `seed ${seed}, report ${k}: took what JSON.parse refuses: ${bytes}`);
          assert.deepEqual(rowOf(new Report(chunk, at, reader.end, true, true, 200, row)), rowOf(same), `seed ${seed}, report ${k}: ${bytes}`);
          if (want) assert.equal(reader.end, at + Buffer.byteLength(text), `seed ${seed}, report ${k}: ends where the report ends`);
        }
        at += Buffer.byteLength(text) + 1;
        k++;
      }
    }
    byShape += reader.byShape;
  }
  assert.ok(refused > 1500 && taken > 15_000, `${taken} taken, ${refused} refused`);
  assert.ok(byShape > taken * 0.8, `${byShape} of ${taken} read by the shape`);
});
