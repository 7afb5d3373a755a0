/**
 * The Parquet shape reader (lake/parquet/shape-reader.ts): a reply's reports cut from its
 * body, chunks cut anywhere, read by the learnt shape where they have it, write the same
 * Parquet file, byte for byte, as the same reports parsed (the general path), on messy
 * replies: escapes, non-ASCII, missing, null and extra members, members in another order,
 * numbers such as 1e2, -0, 1.0 and huge integers, white space, shapes that change part-way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { FeatureSplitter, type HistoryItem, type Report } from '../../src/api/history.js';
import { openParquetStream, REPORT_COLUMNS } from '../../src/lake/parquet/index.js';
import { ColumnBuffers } from '../../src/lake/parquet/buffers.js';
import { ParquetCutReader } from '../../src/lake/parquet/cut-reader.js';
import { messyJson, seeded, type Random } from '../helpers/messy-json.js';
import { parsedItem } from '../helpers/report-points.js';

const NAMES = REPORT_COLUMNS.map((c) => c.name);
const NUMBERS = [
  '0', '-0', '-0.0', '1.0', '1e2', '1E2', '2.5e+3', '1e-7', '7', '-12', '39.7392', '0.30000000000000004', '123456789012345', '9007199254740991',
  '9007199254740992', '9007199254740993', '1234567890123456789', '2147483647', '2147483648', '-2147483648', '1e400', '-1e-400', '5e-324',
  '1795292015.5', '1.7976931348623157e308', '3.141592653589793238462643383279',
];
const STRINGS = [
  '""', '"gps"', '"Bench unit"', '"null"', '"Crème brûlée 日本 🚗"', '"quote \\" and \\\\ back"', '"\\u00e9\\ud83d\\ude97"', '"lone \\ud800"',
  '"\\/\\b\\f\\n\\r\\t"', '"61.5"', '" 12 "', '"\u007f del"', '"n/a"', '"1001"', '"true"',
];
const { ws, value } = messyJson({ numbers: NUMBERS, strings: STRINGS, names: ['x', 'späť', ...NAMES], bare: 0.3, flatFrom: 2, members: 3 });

/** The bench unit's report (the sandbox's), its coordinates moving with `i`. */
function usual(i: number): Array<[string, string]> {
  const lat = `39.${7000 + (i % 997)}`;
  const lng = `-104.${9000 + (i % 991)}`;
  return [
    ['aid', '1001'], ['did', '900000001'], ['name', '"Bench unit"'], ['availability', '"available"'], ['lat', lat], ['lng', lng], ['alt', '1600'],
    ['speed', '42.5'], ['heading', '90'], ['source', '"gps"'], ['address', '"1 Bench St, Denver, CO"'], ['date', String(1795870760 + i)],
    ['battery', String(100 - (i % 100))], ['odometer', '1000'], ['precision', '5'], ['satellites', '9'], ['temperature', i % 7 === 0 ? '21.5' : 'null'],
    ['reportType', '"report"'], ['reportValue', i % 5 === 0 ? '3' : '"periodic"'], ['message', '"Periodic position report"'],
  ];
}

/** A report of the reply: mostly the usual one (in one of two shapes, by `shape`), now and then an odd value, member or geometry. */
function report(r: Random, i: number, shape: number): string {
  const props = usual(i);
  const lat = props[4]![1];
  const lng = props[5]![1];
  if (shape === 1) props.reverse();
  if (r.chance(0.12)) props[r.int(props.length)]![1] = r.pick([r.pick(NUMBERS), r.pick(STRINGS), 'null', 'true', value(r, 2)]);
  if (r.chance(0.03)) props.splice(r.int(props.length), 1);
  if (r.chance(0.03)) props.splice(r.int(props.length), 0, [r.pick(['x', 'späť', 'extra', 'lat', 'name']), value(r, 2)]);
  const geometry = r.chance(0.9) ? `{"type":"Point","coordinates":[${lng},${lat}]}` : r.pick([
    'null', `{"type":"Point","coordinates":[${lng},${lat},1600]}`, `{"coordinates":[${lng},${lat}],"type":"Point"}`, `{"type":"Point","coordinates":[7,${lat}]}`,
    '{"type":"LineString","coordinates":[[1,2],[3,4]]}', `{"type":"Point","coordinates":[${r.pick(NUMBERS)},${r.pick(NUMBERS)}]}`,
  ]);
  const spaced = r.chance(0.03);
  const space = (): string => (spaced && r.chance(0.2) ? ws(r) : '');
  const properties = `{${props.map(([n, v]) => `${space()}"${n}":${space()}${v}`).join(',')}}`;
  const members = shape === 1 ? [['geometry', geometry], ['type', '"Feature"'], ['id', String(i)], ['properties', properties]] : [['type', '"Feature"'], ['properties', properties], ['geometry', geometry]];
  return `{${members.map(([n, v]) => `"${n}":${v}`).join(',')}}`;
}

/** A whole reply of these reports. */
const bodyOf = (texts: readonly string[]): Buffer => Buffer.from(`{"features":[${texts.join(',')}],"success":"ok"}`);

/** A reply whose reports change shape part-way, cut into chunks anywhere (inside a name, a number, a multi-byte character). */
function reply(r: Random, n: number): { texts: string[]; chunks: Buffer[] } {
  const texts = Array.from({ length: n }, (_, i) => report(r, i, i < n / 2 ? 0 : 1));
  const body = bodyOf(texts);
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const size = 1 + r.int(r.chance(0.5) ? 64 * 1024 : 700);
    chunks.push(body.subarray(at, at + size));
    at += size;
  }
  return { texts, chunks };
}

/** The reply's reports, a batch a chunk, as the history reads them with the cut reader. */
function cutByReader(chunks: readonly Buffer[], reader: ParquetCutReader): Report[][] {
  const splitter = new FeatureSplitter(200, reader);
  const cut = chunks.map((chunk) => splitter.cut(chunk));
  splitter.end();
  return cut;
}

/** The Parquet file of the items, written in batches as they come. */
async function parquet(batches: ReadonlyArray<readonly HistoryItem[]>): Promise<Buffer> {
  const stream = new PassThrough();
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(c));
  const sink = openParquetStream(stream, { rowGroupRows: 1000, createdBy: 'trackctl test' });
  for (const batch of batches) await sink.write(batch);
  await sink.end();
  return Buffer.concat(out);
}

test('reports read by the reply\'s learnt shape write the same Parquet file as the same reports parsed, on messy replies', async () => {
  let reports = 0;
  let byShape = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const r = seeded(seed);
    const { texts, chunks } = reply(r, 2500);
    const reader = new ParquetCutReader();
    const cut = cutByReader(chunks, reader);
    assert.equal(cut.flat().length, texts.length);
    const parsed = texts.map(parsedItem);
    const [fromBytes, fromFeatures] = [await parquet(cut), await parquet([parsed])];
    assert.ok(fromBytes.equals(fromFeatures), `seed ${seed}: the files differ`);
    reports += texts.length;
    byShape += reader.byShape;
  }
  // Most reports were read by the shape, not by the member reader or parsed.
  assert.ok(byShape > reports * 0.6, `${byShape} of ${reports} read by the shape`);
});

test('a value the shape finds is read as JSON.parse reads it, and one that does not fit its column leaves the report to the general path', async () => {
  const base = usual(0);
  const texts: string[] = [];
  const odd: Array<[string, string]> = [
    ['aid', '9007199254740993'], ['aid', '1e2'], ['did', '-0'], ['did', '1.0'], ['alt', '1e400'], ['alt', '-0'], ['speed', '0.30000000000000004'],
    ['satellites', '2147483648'], ['satellites', '7.5'], ['date', '1795292015.5'], ['date', '1e300'], ['name', '"null"'], ['name', 'null'],
    ['reportValue', '-0'], ['reportValue', '1E2'], ['lat', '39.71'], ['address', '"Stra\u00dfe 5"'],
  ];
  // Many usual reports first, so that the shape is learnt; then each odd value in turn, a usual report after each.
  for (let i = 0; i < 100; i++) texts.push(JSON.stringify({ type: 'Feature', properties: Object.fromEntries(usual(i).map(([n, v]) => [n, JSON.parse(v)])) }));
  for (const [name, v] of odd) {
    texts.push(`{"type":"Feature","properties":{${base.map(([n, u]) => `"${n}":${n === name ? v : u}`).join(',')}}}`);
    texts.push(texts[0]!);
  }
  const reader = new ParquetCutReader();
  assert.ok((await parquet(cutByReader([bodyOf(texts)], reader))).equals(await parquet([texts.map(parsedItem)])));
  // All but the first usual report (the general reader's, which teaches the shape), and the 12 odd values that fit (not a huge
  // aid, 1e400, satellites out of range or 7.5, a date of 1e300).
  assert.equal(reader.byShape, 99 + odd.length + 12);
});

test('a report that differs from the learnt one where eight bytes compared at once would hide it is read as the general path reads it', async () => {
  /** The usual report with its point, `change` applied to its members (name, value) and `tail` in place of its last bytes. */
  const text = (i: number, change: (props: Array<[string, string]>) => void = () => {}, tail = '}'): string => {
    const props = usual(i);
    const [lat, lng] = [props[4]![1], props[5]![1]];
    change(props);
    return `{"type":"Feature","properties":{${props.map(([n, v]) => `"${n}":${v}`).join(',')}},"geometry":{"type":"Point","coordinates":[${lng},${lat}]}${tail}`;
  };
  const set = (name: string, v: string) => (props: Array<[string, string]>): void => void (props.find(([n]) => n === name)![1] = v);
  // Values that begin or end as the learnt ones do, or that the learnt ones begin with: each read by the shape.
  const values = [
    set('odometer', '10000'), set('odometer', '100'), set('odometer', '1001'), set('aid', '10010'), set('aid', '100'), set('did', '90000000'),
    set('name', '"Bench unit "'), set('name', '"Bench uni"'), set('name', '"Bench unitt"'), set('message', '"Periodic position repor"'),
    set('message', '"Periodic position reports"'), set('address', '"1 Bench St, Denver, CO "'), set('temperature', '21.5'), set('speed', '42.50'),
  ];
  // Reports shaped otherwise: each read member by member or parsed.
  const others = [
    text(1, () => {}, ',"id":7}'), text(1, () => {}, ' }'), text(1, (p) => void p.pop()), text(1, (p) => void p.reverse()),
    text(1, (p) => void p.push(['extra', '1'])), text(1, set('lat', '39.5')), text(1, set('name', '"Bench\\u0020unit"')),
  ];
  const texts: string[] = [];
  for (let i = 0; i < 100; i++) texts.push(text(i));
  for (const change of values) texts.push(text(7, change), text(8));
  for (const other of others) texts.push(other, text(9));
  const reader = new ParquetCutReader();
  assert.ok((await parquet(cutByReader([bodyOf(texts)], reader))).equals(await parquet([texts.map(parsedItem)])));
  // All but the first usual report (the one that teaches the shape) and the reports shaped otherwise.
  assert.equal(reader.byShape, texts.length - 1 - others.length);
});

test('usual reports between reports of another shape keep the learnt shape: it is learnt again only after 64 misses in a row', async () => {
  const text = (i: number, reversed: boolean): string => {
    const props = usual(i);
    const [lat, lng] = [props[4]![1], props[5]![1]];
    if (reversed) props.reverse();
    return `{"type":"Feature","properties":{${props.map(([n, v]) => `"${n}":${v}`).join(',')}},"geometry":{"type":"Point","coordinates":[${lng},${lat}]}}`;
  };
  // 100 usual reports, then 200 pairs of a usual one and one with its properties the other way round (the member reader's).
  const texts: string[] = [];
  for (let i = 0; i < 100; i++) texts.push(text(i, false));
  for (let i = 100; i < 300; i++) texts.push(text(i, false), text(i, true));
  const reader = new ParquetCutReader();
  assert.ok((await parquet(cutByReader([bodyOf(texts)], reader))).equals(await parquet([texts.map(parsedItem)])));
  // Every usual report but the first (which teaches the shape): the other shape never misses 64 times in a row, so it is never learnt.
  assert.equal(reader.byShape, 299);
});

/** The settled cells of the buffers, row by row: [column name, cell] pairs (-0 told from 0). */
function rowsOf(b: ColumnBuffers): unknown[][] {
  b.settle();
  const columns = b.columns.map((c) => {
    const cells: unknown[] = [];
    let v = 0;
    for (let row = 0; row < b.rows; row++) {
      const cell = c.defs[row] === 0 ? null : c.kind === 'string' ? c.strings[v++] : c.numbers[v++];
      cells.push(Object.is(cell, -0) ? '-0' : cell);
    }
    assert.equal(v, c.count);
    return cells;
  });
  return Array.from({ length: b.rows }, (_, row) => columns.map((cells) => cells[row]));
}

test('a row group holds each row\'s own cells: a column kept as one cell while the rows agree is written out where one differs', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const r = seeded(seed);
    const { texts, chunks } = reply(r, 1500);
    const reader = new ParquetCutReader();
    const cut = cutByReader(chunks, reader).flat();
    // Runs of the same cell broken now and then: a constant name, -0 after 0, a null after a number, a report parsed between.
    const items: HistoryItem[] = cut.map((report, i) => (i % 97 === 5 ? parsedItem(texts[i]!) : report));
    const together = new ColumnBuffers();
    for (const item of items) together.append(item);
    // Each row in buffers of its own: no run, no learnt shape.
    const alone = items.map((item) => {
      const b = new ColumnBuffers();
      b.append(item);
      return rowsOf(b)[0];
    });
    assert.deepEqual(rowsOf(together), alone, `seed ${seed}`);
    assert.ok(reader.byShape > items.length / 2);
  }
});
