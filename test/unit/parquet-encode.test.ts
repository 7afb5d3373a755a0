/**
 * The column-chunk encoder against pyarrow on messy input: nulls scattered and in runs,
 * columns that take a dictionary, that do not, and that give one up half way, pages and row
 * groups crossing, negative and large int64s, text in every plane, extra properties; every
 * codec. pyarrow reads each file back and compares it, row by row, with the NDJSON of the
 * same features (its own json module: an independent reading).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { HistoryItem } from '../../src/api/history.js';
import { PAGE_ROWS } from '../../src/lake/parquet/encode.js';
import { COMPRESSIONS, openParquetStream, pageCodec } from '../../src/lake/parquet/index.js';
import { needPyarrow, readParquet } from '../helpers/parquet.js';

/** A small seeded generator (mulberry32): the same messy data on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ['', 'Periodic position report', 'Ωmega', 'zeta', '\uff61half-width', '😀 emoji', '東京都港区', 'tab\tand "quote"', 'a\u0000nul'];

function features(n: number): Array<{ type: 'Feature'; properties: Record<string, unknown>; geometry: unknown }> {
  const r = random(22);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  let nullRun = 0;
  return Array.from({ length: n }, (_, i) => {
    // Nulls one at a time and in runs of a few hundred (RLE runs and bit-packed groups in the levels).
    if (nullRun > 0) nullRun--;
    else if (r() < 0.002) nullRun = 100 + Math.floor(r() * 400);
    const maybe = <T>(v: T, p = 0.05): T | null => (nullRun > 0 || r() < p ? null : v);
    const lat = -90 + 180 * r();
    const lng = -180 + 360 * r();
    const properties: Record<string, unknown> = {
      aid: pick([1001, -7, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]),
      did: 2000 + Math.floor(i / 500),
      name: maybe(`Unit ${Math.floor(i / 500)}`),
      availability: maybe(pick(['available', 'offline', 'maintenance'])),
      lat,
      lng,
      alt: maybe(Math.round(r() * 3000) - 100),
      speed: maybe(pick([0, -0, 0.5, 12.25, 88, 1e-300, 1.7976931348623157e308])),
      heading: maybe(Math.floor(r() * 360)),
      source: maybe(pick(['gps', 'cell', 'wifi'])),
      // Few distinct addresses in the first half, all distinct in the second: the dictionary is given up part way.
      address: maybe(i < n / 2 ? `${i % 7} Main St` : `${i} ${pick(TEXTS)} Rd`),
      date: 1_795_000_000 + 37 * i - (i % 2 === 1 ? 86400 * 400 : 0),
      battery: maybe(pick([100, 99.5, 3, 0])),
      odometer: maybe(123_456.789 + i / 10, 0.5),
      precision: maybe(pick([3, 5, 10, 25.5])),
      satellites: maybe(pick([0, 4, 9, 12, -1, 2147483647])),
      temperature: null,
      reportType: maybe(pick(['report', 'sos', '\uff61', '😀', 'Ωmega'])),
      reportValue: maybe(pick(TEXTS)),
      message: maybe(`${pick(TEXTS)} ${Math.floor(r() * 1e6)}`, 0.3),
    };
    if (i % 97 === 0) properties.ignition = pick(['on', 'off', null, 42]);
    if (i % 1013 === 0) properties.nested = { a: [1, 'two', null] };
    return { type: 'Feature', properties, geometry: { type: 'Point', coordinates: [lng, lat] } };
  });
}

async function writeFile(file: string, items: readonly HistoryItem[], rowGroupRows: number, compression: (typeof COMPRESSIONS)[number]): Promise<void> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  const sink = openParquetStream(stream, { rowGroupRows, codec: await pageCodec(compression) });
  for (let i = 0; i < items.length; i += 3000) await sink.write(items.slice(i, i + 3000));
  await sink.end();
  writeFileSync(file, Buffer.concat(chunks));
}

function asItems(all: ReturnType<typeof features>): HistoryItem[] {
  return all.map((f) => ({ text: JSON.stringify(f), feature: f as unknown as HistoryItem['feature'], verbatim: true }));
}

test('pyarrow reads the file back value for value, across pages, row groups and dictionaries given up; statistics from the input', async (t) => {
  if (!needPyarrow(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-parquet-encode-'));
  try {
    const rows = PAGE_ROWS + 40_000;
    const group = PAGE_ROWS + 10_000; // the first row group holds two pages a column
    const all = features(rows);
    const ndjson = join(dir, 'want.ndjson');
    writeFileSync(ndjson, all.map((f) => JSON.stringify(f)).join('\n') + '\n');
    const file = join(dir, 'out.parquet');
    await writeFile(file, asItems(all), group, 'zstd');
    const read = readParquet(file, { ndjson });
    assert.deepEqual(read.mismatches, []);
    assert.equal(read.compared, rows);
    assert.deepEqual(read.rowGroups, [group, rows - group]);
    // Statistics of the first row group, computed here from the input.
    const first = all.slice(0, group).map((f) => f.properties);
    const present = <T>(k: string): T[] => first.map((p) => p[k]).filter((v) => v !== null) as T[];
    const dids = present<number>('did');
    assert.deepEqual(read.statistics.did, [String(Math.min(...dids)), String(Math.max(...dids))]);
    const sats = present<number>('satellites');
    assert.deepEqual(read.statistics.satellites, [String(Math.min(...sats)), String(Math.max(...sats))]);
    // Text bounds in UTF-8 byte order (😀 sorts after U+FF61 there, before it in UTF-16).
    const types = present<string>('reportType').sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual(read.statistics.reportType, [types[0], types.at(-1)]);
    assert.equal(types.at(-1), '😀');
    assert.equal(read.statistics.temperature, null, 'a column of nulls has no bounds');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every codec reads back the same messy rows', async (t) => {
  if (!needPyarrow(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-parquet-encode-'));
  try {
    const all = features(4000);
    const ndjson = join(dir, 'want.ndjson');
    writeFileSync(ndjson, all.map((f) => JSON.stringify(f)).join('\n') + '\n');
    for (const compression of COMPRESSIONS) {
      const file = join(dir, `${compression}.parquet`);
      await writeFile(file, asItems(all), 1500, compression);
      const read = readParquet(file, { ndjson });
      assert.deepEqual(read.mismatches, [], compression);
      assert.equal(read.compared, all.length, compression);
      assert.deepEqual(read.rowGroups, [1500, 1500, 1000], compression);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a negative zero stays negative where a dictionary would have merged it with zero', async (t) => {
  if (!needPyarrow(t)) return;
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-parquet-encode-'));
  try {
    const all = features(2000).map((f, i) => ({ ...f, properties: { ...f.properties, speed: [0, -0, 5][i % 3], battery: 7 } }));
    const file = join(dir, 'zeros.parquet');
    await writeFile(file, asItems(all), 2000, 'zstd');
    const speeds = readParquet(file, { rows: true }).rows!.map((r) => r.speed as number);
    assert.equal(speeds.length, 2000);
    assert.ok(speeds.every((s, i) => Object.is(s, [0, -0, 5][i % 3])), 'each zero with its sign');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
