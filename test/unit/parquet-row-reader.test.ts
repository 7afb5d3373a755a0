/**
 * A report's Parquet row read from its bytes (row-reader.ts) against the row of its parsed
 * feature (tolerantFeature(JSON.parse(text)), as the reply reader gives it): on generated
 * reports, usual and odd, the two give the same cells in every column, and a usual report is
 * never parsed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Report } from '../../src/api/report-item.js';
import { ColumnBuffers } from '../../src/lake/parquet/buffers.js';
import { PARQUET_COLUMNS, REPORT_COLUMNS } from '../../src/lake/parquet/columns.js';
import { ParquetCutReader } from '../../src/lake/parquet/cut-reader.js';
import { RowReader } from '../../src/lake/parquet/row-reader.js';
import { messyJson, seeded, type Random } from '../helpers/messy-json.js';
import { parsedItem } from '../helpers/report-points.js';


const NAMES = REPORT_COLUMNS.map((c) => c.name);
const OTHER = ['x', 'späť', 'extra', '__proto__', 'properties', ''];
const NUMBERS = [
  '0', '-0', '-0.0', '7', '-12', '39.7392', '-104.9903', '42.5', '0.1', '0.30000000000000004', '123456789012345', '1234567890123456789',
  '9007199254740993', '9007199254740991', '2147483647', '2147483648', '-2147483648', '1.7976931348623157e308', '1e400', '-1e-400', '5e-324',
  '1E2', '2.5e+3', '1e-7', '0.000001', '100.0', '1795292015', '1795292015.5', '9007199254740.99', '3.141592653589793238462643383279',
  '12345.678901234567', '222.66213322367935', '0.00000000000000000000001234',
];
const STRINGS = [
  '""', '"gps"', '"Bench unit"', '"1 Bench St, Denver, CO"', '"Crème brûlée 日本 🚗"', '"quote \\" and \\\\ back"', '"\\u00e9\\ud83d\\ude97"',
  '"lone \\ud800"', '"\\/\\b\\f\\n\\r\\t"', '"61.5"', '" 12 "', '"1e3"', '"0x10"', '"abc"', '"\u007f del"', '"n/a"', '"Point"',
];

const { ws, value, object } = messyJson({ numbers: NUMBERS, strings: STRINGS, names: [...OTHER, ...NAMES], bare: 0.85, flatFrom: 2, members: 3 });

/** A usual value of a column, as the service sends it. */
function usual(r: Random, name: string, lng: string, lat: string): string {
  const kind = REPORT_COLUMNS.find((c) => c.name === name)!.kind;
  if (name === 'lat') return lat;
  if (name === 'lng') return lng;
  if (r.chance(0.1)) return 'null';
  if (kind === 'string') return r.pick(['"gps"', '"Bench unit"', '"1 Bench St, Denver, CO"', '"report"', '"Crème brûlée 日本 🚗"', '"quote \\" and \\\\ back"']);
  if (kind === 'timestamp') return r.pick(['1795292015', '1795292016', '1795292015.5']);
  if (kind === 'int32' || kind === 'int64') return r.pick(['0', '9', '1001', '900000001']);
  return r.pick(['0', '-0', '42.5', '1600', '39.7001', '-104.9001', '1e2', '222.66213322367935']);
}

/** A report: mostly as the service sends one, with now and then an odd member, value, geometry or white space. */
function report(r: Random): string {
  const odd = r.chance(0.5);
  const lng = r.pick(['-104.9', '-104.9001', '7']);
  const lat = r.pick(['39.7', '39.7001', '-0']);
  const names = NAMES.filter(() => !odd || r.chance(0.85));
  if (odd && r.chance(0.3)) names.push(r.pick([...OTHER, ...NAMES])); // an unknown member, or a repeat: the last counts
  if (odd && r.chance(0.3)) names.sort(() => r.int(3) - 1);
  const properties = object(r, names, (n) => (odd && r.chance(0.08) ? value(r, 2) : NAMES.includes(n) ? usual(r, n, lng, lat) : value(r, 2)));
  const geometries = [
    `{"type":"Point","coordinates":[${lng},${lat}]}`,
    `{${ws(r)}"coordinates"${ws(r)}:${ws(r)}[${lng},${ws(r)}${lat},${ws(r)}1600]${ws(r)},"type":"Point"}`,
    'null', '{"type":"LineString","coordinates":[[1,2],[3,4]]}', `{"type":"Point","coordinates":["${lng}",${lat}]}`,
    `{"type":"Point","coordinates":[${lng}]}`, `{"type":"Point","coordinates":[${r.pick(NUMBERS)},${r.pick(NUMBERS)}]}`, '{"coordinates":[1,2]}',
    `{"type":"Point","coordinates":[${lng},${lat}],"bbox":[1,2,3,4]}`,
  ];
  const members: Array<[string, string]> = [['type', '"Feature"'], ['properties', properties]];
  if (!odd || r.chance(0.8)) members.push(['geometry', odd ? r.pick(geometries) : geometries[0]!]);
  if (odd && r.chance(0.2)) members.push([r.pick(['id', 'geometry', 'properties', 'x']), value(r, 1)]);
  if (odd && r.chance(0.3)) members.sort(() => r.int(3) - 1);
  return `{${ws(r)}${members.map(([n, v]) => `"${n}"${ws(r)}:${ws(r)}${v}`).join(`${ws(r)},${ws(r)}`)}${ws(r)}}`;
}

/**
 * A report the reply reader lets through (it fails on the rest before they are written):
 * valid JSON whose last `properties` is an object.
 */
function validReport(r: Random): string {
  for (;;) {
    const text = report(r);
    const p = (JSON.parse(text) as { properties?: unknown }).properties;
    if (typeof p === 'object' && p !== null && !Array.isArray(p)) return text;
  }
}

/** The report as the reply reader gives it: cut from a chunk with other bytes around it, with the cells the cut reader read of it (if it did). */
function cut(text: string, reader = new ParquetCutReader()): Report {
  const bytes = Buffer.from(`[ ${text} ,\n`);
  const end = bytes.length - 3;
  reader.load(bytes);
  const row = reader.read(2);
  return new Report(bytes, 2, end, true, true, 200, reader.end === end ? row : undefined);
}

/** The buffers' cells, column by column: [name, cell per row]. */
function cells(b: ColumnBuffers): Array<[string, unknown[]]> {
  b.settle();
  return PARQUET_COLUMNS.map((c, i) => {
    const col = b.columns[i]!;
    const out: unknown[] = [];
    let v = 0;
    for (let row = 0; row < b.rows; row++) {
      if (col.defs[row] === 0) out.push(null);
      else {
        const cell = col.kind === 'string' ? col.strings[v] : col.numbers[v];
        out.push(Object.is(cell, -0) ? '-0' : cell); // deepEqual takes -0 for 0; the file does not
        v++;
      }
    }
    assert.equal(v, col.count);
    return [c.name, out];
  });
}

test('a report read from its bytes gives the row of its parsed feature, usual or odd', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const r = seeded(seed);
    const texts = Array.from({ length: 20 }, () => validReport(r));
    const fromBytes = new ColumnBuffers();
    const fromFeature = new ColumnBuffers();
    const reader = new ParquetCutReader();
    for (const text of texts) {
      fromBytes.append(cut(text, reader));
      fromFeature.append(parsedItem(text));
    }
    assert.deepEqual(cells(fromBytes), cells(fromFeature), `seed ${seed}:\n${texts.join('\n')}`);
  }
});

test('the generator makes usual reports and odd ones: the reader reads the first and gives up on many of the second', () => {
  const reader = new RowReader(REPORT_COLUMNS);
  let read = 0;
  let total = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const r = seeded(seed);
    for (let k = 0; k < 20; k++) {
      const bytes = Buffer.from(validReport(r));
      total++;
      if (reader.read(Buffer.concat([bytes, Buffer.alloc(8)]), 0) === bytes.length) read++; // zero bytes after, as the cut reader loads them
    }
  }
  assert.ok(read > total * 0.5 && read < total * 0.9, `${read} of ${total} read from their bytes`);
});

/** A report whose feature must not be asked for. */
class Unparsed extends Report {
  override get feature(): never {
    throw new Error('the report was parsed');
  }
}

test('a usual report (the sandbox bench unit\'s shape, escapes, non-ASCII, numbers in a text column) is read from its bytes, never parsed', () => {
  const texts = [
    '{"type":"Feature","properties":{"aid":1001,"did":900000001,"name":"Bench unit","availability":"available","lat":39.7,"lng":-104.9,"alt":1600,"speed":42.5,"heading":90,"source":"gps","address":"1 Bench St, Denver, CO","date":1795838915,"battery":100,"odometer":1000,"precision":5,"satellites":9,"temperature":null,"reportType":"report","reportValue":"periodic","message":"Periodic position report"},"geometry":{"type":"Point","coordinates":[-104.9,39.7]}}',
    '{ "geometry": null, "properties": { "did": 2004, "name": "Van \\"7\\"", "address": "Straße 5, Zürich", "reportValue": 3, "date": 1.7952e9 }, "id": [1, {"a": true}] }',
  ];
  const b = new ColumnBuffers();
  const reader = new ParquetCutReader();
  for (const text of texts) {
    const bytes = Buffer.from(text);
    reader.load(bytes);
    const row = reader.read(0);
    assert.equal(reader.end, bytes.length);
    b.append(new Unparsed(bytes, 0, bytes.length, true, true, 200, row));
  }
  const row = (k: number): Record<string, unknown> => Object.fromEntries(cells(b).map(([name, column]) => [name, column[k]]));
  assert.deepEqual(
    { ...row(0) },
    {
      aid: 1001, did: 900000001, name: 'Bench unit', availability: 'available', lat: 39.7, lng: -104.9, alt: 1600, speed: 42.5, heading: 90, source: 'gps',
      address: '1 Bench St, Denver, CO', date: 1795838915000, battery: 100, odometer: 1000, precision: 5, satellites: 9, temperature: null,
      reportType: 'report', reportValue: 'periodic', message: 'Periodic position report', extra: null,
    },
  );
  assert.equal(row(1).name, 'Van "7"');
  assert.equal(row(1).address, 'Straße 5, Zürich');
  assert.equal(row(1).reportValue, '3');
  assert.equal(row(1).date, 1795200000000);
  assert.equal(row(1).lat, null);
});
