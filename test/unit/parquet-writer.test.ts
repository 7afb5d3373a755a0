/** The Parquet history writer: column typing and coercion, `extra`, row groups, and the file put in place only when whole. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import type { HistoryItem } from '../../src/api/history.js';
import { ColumnBuffers } from '../../src/lake/parquet/buffers.js';
import { PARQUET_COLUMNS } from '../../src/lake/parquet/columns.js';
import { openParquetFile, openParquetStream } from '../../src/lake/parquet/index.js';
import { needPyarrow, readParquet } from '../helpers/parquet.js';

type Props = Record<string, unknown>;

function props(i: number, extra: Props = {}): Props {
  return {
    aid: 1001, did: 2004, name: 'Van 7', availability: 'available', lat: 39.7 + i / 1000, lng: -104.9 - i / 1000, alt: 1600 + i,
    speed: 40.5, heading: 90, source: 'gps', address: `${i} Main St`, date: 1_795_000_000 + 60 * i, battery: 80, odometer: null,
    precision: 5, satellites: 9, temperature: null, reportType: 'report', reportValue: 'periodic', message: 'Periodic position report', ...extra,
  };
}

function item(p: Props, geometry: unknown = { type: 'Point', coordinates: [p.lng, p.lat] }): HistoryItem {
  const feature = { type: 'Feature', properties: p, geometry };
  return { text: JSON.stringify(feature), feature: feature as unknown as HistoryItem['feature'], verbatim: true };
}

/** One row as the column buffers hold it: column name → cell. */
function row(it: HistoryItem): Record<string, unknown> {
  const b = new ColumnBuffers();
  b.append(it);
  b.settle();
  return Object.fromEntries(PARQUET_COLUMNS.map((c, i) => {
    const col = b.columns[i]!;
    assert.equal(col.count, col.defs[0], 'a value exactly where the row has one');
    return [c.name, col.defs[0] === 0 ? null : col.kind === 'string' ? col.strings[0] : col.numbers[0]];
  }));
}

test('cells are typed per column: int64 as exact integers, date in milliseconds, missing and null are null', () => {
  const p = props(0);
  delete p.address;
  const r = row(item(p));
  assert.equal(r.did, 2004);
  assert.equal(r.aid, 1001);
  assert.equal(r.date, 1_795_000_000_000);
  assert.equal(r.satellites, 9);
  assert.equal(r.speed, 40.5);
  assert.equal(r.address, null);
  assert.equal(r.odometer, null);
  assert.equal(r.extra, null);
});

test('numeric strings become numbers; values that fit no column are null there and kept in extra', () => {
  const r = row(item(props(1, { did: '2004', speed: ' 12.5 ', date: '1795000060', satellites: 7.5, battery: 'n/a', heading: true, reportValue: 3, message: { a: 1 } })));
  assert.equal(r.did, 2004);
  assert.equal(r.speed, 12.5);
  assert.equal(r.date, 1_795_000_060_000);
  assert.equal(r.satellites, null);
  assert.equal(r.battery, null);
  assert.equal(r.heading, null);
  assert.equal(r.reportValue, '3', 'a number in a text column is its text');
  assert.equal(r.message, null);
  assert.deepEqual(JSON.parse(r.extra as string), { satellites: 7.5, battery: 'n/a', heading: true, message: { a: 1 } });
});

test('unknown properties go to extra (even __proto__); lat/lng come from the geometry, a differing property is kept', () => {
  const p = props(2, { lat: 1, ignition: 'on', nested: { x: [1, 2] } });
  const withProto = JSON.parse(JSON.stringify(p).replace(/^\{/, '{"__proto__":{"polluted":1},')) as Props;
  const r = row(item(withProto, { type: 'Point', coordinates: [-104.5, 39.5] }));
  assert.equal(r.lat, 39.5);
  assert.equal(r.lng, -104.5);
  assert.deepEqual(JSON.parse(r.extra as string), { lat: 1, lng: p.lng, ignition: 'on', nested: { x: [1, 2] }, ['__proto__']: { polluted: 1 } });
  assert.equal(({} as Props).polluted, undefined);
  // No Point geometry: the properties' lat/lng, nothing in extra.
  const q = row(item(props(3), null));
  assert.equal(q.lat, props(3).lat);
  assert.equal(q.extra, null);
  // Neither: nulls.
  const n = props(4);
  delete n.lat;
  delete n.lng;
  const none = row(item(n, { type: 'LineString', coordinates: [] }));
  assert.equal(none.lat, null);
  assert.equal(none.lng, null);
});

test('pyarrow reads the stream back: row groups of the size asked, typed columns, every value', async (t) => {
  if (!needPyarrow(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-parquet-'));
  try {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const sink = openParquetStream(stream, { rowGroupRows: 3, createdBy: 'trackctl test' });
    const all = Array.from({ length: 10 }, (_, i) => item(props(i, i === 4 ? { address: null, temperature: -3.5, odometer: 12 } : {})));
    await sink.write(all.slice(0, 4));
    await sink.write([]);
    await sink.write(all.slice(4));
    await sink.end();
    assert.equal(sink.count, 10);
    const file = join(dir, 'out.parquet');
    writeFileSync(file, Buffer.concat(chunks));
    const read = readParquet(file, { rows: true });
    assert.deepEqual(read.rowGroups, [3, 3, 3, 1]);
    // Statistics where readers skip row groups with them; none on free text.
    assert.deepEqual(read.statistics.date, ['2026-11-18 11:06:40+00:00', '2026-11-18 11:08:40+00:00']);
    assert.deepEqual(read.statistics.did, ['2004', '2004']);
    assert.deepEqual(read.statistics.alt, ['1600.0', '1602.0']);
    assert.deepEqual(read.statistics.reportType, ['report', 'report']);
    assert.equal(read.statistics.address, null);
    assert.equal(read.statistics.message, null);
    assert.equal(read.createdBy, 'trackctl test');
    assert.deepEqual(Object.fromEntries(read.schema), {
      aid: 'int64', did: 'int64', name: 'string', availability: 'string', lat: 'double', lng: 'double', alt: 'double', speed: 'double',
      heading: 'double', source: 'string', address: 'string', date: 'timestamp[ms, tz=UTC]', battery: 'double', odometer: 'double',
      precision: 'double', satellites: 'int32', temperature: 'double', reportType: 'string', reportValue: 'string', message: 'string', extra: 'string',
    });
    assert.deepEqual(read.schema.map(([name]) => name), PARQUET_COLUMNS.map((c) => c.name), 'columns in the interface order');
    const want = all.map((it) => ({ ...(it.feature.properties as unknown as Props), date: (it.feature.properties.date) * 1000, extra: null }));
    assert.deepEqual(read.rows, want);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file appears only when whole; discard leaves nothing; no reports is still a valid file', async (t) => {
  if (!needPyarrow(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-parquet-'));
  try {
    const path = join(dir, 'h.parquet');
    const sink = await openParquetFile(path, { rowGroupRows: 2 });
    await sink.write([item(props(0)), item(props(1)), item(props(2))]);
    assert.equal(existsSync(path), false, 'not in place before end()');
    assert.equal(readdirSync(dir).length, 1, 'a temporary file beside it');
    await sink.end();
    await sink.discard(); // after end(): a no-op
    assert.deepEqual(readdirSync(dir), ['h.parquet']);
    assert.deepEqual(readParquet(path).rowGroups, [2, 1]);

    const gone = await openParquetFile(join(dir, 'gone.parquet'));
    await gone.write([item(props(0))]);
    await gone.discard();
    assert.deepEqual(readdirSync(dir), ['h.parquet']);

    const empty = await openParquetFile(join(dir, 'empty.parquet'));
    await empty.end();
    const read = readParquet(join(dir, 'empty.parquet'), { rows: true });
    assert.equal(read.numRows, 0);
    assert.deepEqual(read.rows, []);
    assert.equal(read.schema.length, PARQUET_COLUMNS.length);

    await assert.rejects(openParquetFile(join(dir, 'no-such-dir', 'x.parquet')), /ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
