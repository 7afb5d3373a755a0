/**
 * The splitter's fast path (features checked and cut out by one regular expression) and the
 * byte path of ndjson/geojson must give exactly what the byte-by-byte path and the text path
 * give: the same reports, the same errors, the same output bytes, wherever the chunks are cut.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { FeatureSplitter, openHistory, Report, reportBytes, type HistoryItem, type PointItem } from '../../src/api/history.js';
import type { Api } from '../../src/api/client.js';
import type { ReportFeature } from '../../src/api/types.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { tolerantFeature } from '../../src/api/tolerant.js';
import { PointReader } from '../../src/api/report-point.js';
import { openHistorySink, featureLine } from '../../src/io/pages/geo/sink.js';
import type { OutputOptions } from '../../src/io/formats/output.js';
import type { IO } from '../../src/io/delivery/streams.js';
import { CSV_COLUMNS, flatReport } from '../../src/commands/history/columns.js';
import { FeatureCheck, featureShape, matchFeature, shapesCompiled } from '../../src/api/feature-match.js';
import { messyJson, seeded, type Random } from '../helpers/messy-json.js';
import { ioWithStdout } from '../../src/io/delivery/output-file.js';
import { fileIO } from '../../src/io/delivery/outdir.js';

const bench =
  '{"type":"Feature","properties":{"aid":1001,"did":900000001,"name":"Bench unit","availability":"available","lat":39.7,"lng":-104.9,"alt":1600,' +
  '"speed":42.5,"heading":90,"source":"gps","address":"1 Bench St, Denver, CO","date":1795292015,"battery":100,"odometer":1000,"precision":5,' +
  '"satellites":9,"temperature":null,"reportType":"report","reportValue":"periodic","message":"Periodic position report"},"geometry":{"type":"Point","coordinates":[-104.9,39.7]}}';

/** Valid features the fast path takes (checked), as raw text. */
const fast: string[] = [
  bench,
  '{"type":"Feature","properties":{"name":"Crème brûlée 日本 🚗","deg":"12° ±1","m":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude97 lone \\ud800"},"geometry":null}',
  '{ "type" : "Feature" ,\t"properties" : { "n" : [ 0 , -0 , 1.5e3 , 1E-7 , -12.25 , 1e+2 , true , false , null ] , "o" : { "a" : "" , "b" : 0 } , "e" : [ ] , "f" : { } } }',
  '{"properties":{"a":1},\n"b":2}', // a line break between members: checked, but not verbatim
  '{"properties":{},"geometry":{"type":"Point","coordinates":[1,2]},"__proto__":{"x":1}}',
  '{"properties":{"del":"a\u007fb","c1":"x\u0085y"}}',
  '{"a":"properties","properties":{"properties":{"x":"}]"}},"b":"\\"properties\\":null"}',
];
/** Valid features the fast path leaves to JSON.parse (unchecked) but that must come out the same. */
const slow: string[] = [
  '{"type":"Feature","properties":{"a":{"b":{"c":[[1]]}}}}', // deeper than the expression goes
  '{"type":"Feature","propert\\u0069es":{"a":1}}', // an escaped member name
  '{"properties":null,"properties":{"a":1}}', // a duplicate: the last one counts
  '{"properties":[1,2]}', // an array passes parseFeature's check
];
/** Features parseFeature rejects: each must fail the same way, wherever the chunks are cut. */
const bad: string[] = [
  '{"properties":{"a":01}}', '{"properties":{"a":1,}}', '{"properties":{"a":[1,]}}', '{"properties":{"a":"tab\there"}}',
  '{"properties":{"a":"\\x"}}', '{"properties":{"a":"\\u12G4"}}', '{"properties":{"a":tru}}', '{"properties":{"a":NaN}}',
  '{"properties":{"a":+1}}', '{"properties":{"a":.5}}', '{"properties":{"a":1.}}', '{"properties":{"a":-}}', '{"properties":{"a":1e}}',
  "{'properties':{}}", '{"properties" {}}', '{"properties":null}', '{"properties":"x"}', '{"type":"Feature"}',
  '{"properties":{},"properties":null}', '{"properties":{},"propert\\u0069es":null}', '{"properties":{}, é:1}', '{"properties":{"a" "b"}}',
  '{"properties":{"a":1 "b":2}}', '{"properties":{"a":[1 2]}}', '{"properties":{,}}', '{"properties":{"a":1}"b":2}',
];

const body = (features: string[]): Buffer => Buffer.from(`{"features":[${features.join(',')}],"success":"ok"}`, 'utf8');

/** The reference: the features' bytes by bracket depth, then JSON.parse (what the splitter did before the fast path). */
function reference(features: string[]): { texts: string[]; error?: RegExp } {
  const texts: string[] = [];
  for (const text of features) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { texts, error: new RegExp(`not valid JSON \\(status 200\\): ${escape((err as Error).message)}`) };
    }
    const props = (value as { properties?: unknown }).properties;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof props !== 'object' || props === null) {
      return { texts, error: /unexpected shape \(status 200\)/ };
    }
    texts.push(text);
  }
  return { texts };
}
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function fakeApi(chunks: Buffer[]): Api {
  return { stream: async () => ({ status: 200, headers: {}, body: Readable.from(chunks) }) } as unknown as Api;
}

function cutAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const out: Buffer[] = [];
  let prev = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(bytes.subarray(prev, cut));
    prev = cut;
  }
  return out;
}

/** The reports openHistory yields for these chunks, or the error it throws (with the reports before it). */
async function read(chunks: Buffer[], points = false): Promise<{ items: Report[]; error?: unknown }> {
  const items: Report[] = [];
  try {
    const reply = await openHistory(fakeApi(chunks), 1, {}, { reader: points ? new PointReader() : undefined });
    for await (const batch of reply.batches) items.push(...batch);
  } catch (error) {
    return { items, error };
  }
  return { items };
}

test('fast path: the expression takes plain features and leaves the unusual ones to JSON.parse', () => {
  for (const [list, checked] of [[fast, true], [slow, false]] as const) {
    for (const text of list) {
      const s = new FeatureSplitter(200);
      const [report, ...rest] = s.cut(body([text]));
      s.end();
      assert.equal(rest.length, 0);
      assert.equal(report?.text, text);
      assert.equal(report?.checked, checked, text);
      assert.deepEqual(report?.feature, JSON.parse(text));
    }
  }
});

/** What the report algorithms read of a feature, the parsed way. */
function pointOf(text: string): Record<string, unknown> {
  const p = tolerantFeature(JSON.parse(text) as ReportFeature).properties as unknown as Record<string, unknown>;
  return Object.fromEntries(POINT_KEYS.map((k) => [k, p[k]]));
}
const POINT_KEYS = ['did', 'name', 'lat', 'lng', 'speed', 'date', 'odometer', 'address', 'reportType', 'reportValue'];
const pointFields = (r: PointItem): Record<string, unknown> => Object.fromEntries(POINT_KEYS.map((k) => [k, (r.point.properties as Record<string, unknown>)[k]]));

for (const points of [false, true]) {
  test(`fast path${points ? ' reading points' : ''}: the same reports as JSON.parse, or the same error, wherever the body is cut`, async () => {
    await sameWhereverCut(points);
  });
}

async function sameWhereverCut(points: boolean): Promise<void> {
  const cases = [[...fast, ...slow], ...bad.map((b) => [bench, b, bench]), ...slow.map((s) => [s, bench, s])];
  for (const features of cases) {
    const bytes = body(features);
    const want = reference(features);
    // What every cut must give, worked out once for all the cuts.
    const wantPoints = points ? want.texts.map(pointOf) : [];
    const wantFeatures = want.texts.map((t) => JSON.parse(t) as unknown);
    const shown = features.join(',').slice(0, 80);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got = await read(cutAt(bytes, [cut]), points);
      const where = `${shown} cut at ${cut}`;
      if (want.error) {
        assert.ok(got.error instanceof ApiError, `${where}: ${String(got.error)}`);
        assert.match((got.error as Error).message, want.error, where);
        // A batch is yielded only whole: the reports before the bad one in its chunk are never written.
        assert.ok(got.items.length <= want.texts.length, where);
      } else {
        assert.equal(got.error, undefined, where);
        assert.deepEqual(got.items.map((i) => i.text), want.texts, where);
        if (points) assert.deepEqual(got.items.map(pointFields), wantPoints, where);
        assert.deepEqual(got.items.map((i) => i.feature), wantFeatures, where);
      }
    }
  }
}

test('reading points: the reader takes what the expression takes and deeper nesting; the rest is parsed whole', () => {
  for (const [text, checked] of [...fast.map((f) => [f, true] as const), ...slow.map((f, i) => [f, i === 0] as const)]) {
    const s = new FeatureSplitter(200, new PointReader());
    const [report, ...rest] = s.cut(body([text]));
    s.end();
    assert.equal(rest.length, 0);
    assert.equal(report?.checked, checked, text);
    assert.deepEqual(pointFields(report as Report), pointOf(text), text);
  }
});

test('fast path: three-way cuts through a run of plain features, inside strings, escapes and multi-byte characters', () => {
  const features = [fast[1] as string, bench, fast[1] as string, fast[2] as string];
  const bytes = body(features);
  for (let a = 0; a < bytes.length; a += 3) {
    for (let b = a; b < bytes.length; b += 11) {
      const s = new FeatureSplitter(200);
      const reports = cutAt(bytes, [a, b]).flatMap((c) => s.cut(c));
      s.end();
      assert.deepEqual(reports.map((r) => r.text), features, `cuts ${a}, ${b}`);
      assert.ok(reports.every((r) => r.checked), `cuts ${a}, ${b}: a feature that spans chunks is checked whole`);
    }
  }
});

test('fast path: bytes that are not UTF-8 inside a string read as U+FFFD, as before', () => {
  const raw = Buffer.concat([Buffer.from('{"features":[{"properties":{"a":"x'), Buffer.from([0xff, 0xc3, 0x22]), Buffer.from('}}],"success":"ok"}')]);
  const s = new FeatureSplitter(200);
  const [report] = s.cut(raw);
  s.end();
  assert.equal(report?.checked, true);
  assert.deepEqual(report?.feature, { properties: { a: 'x\ufffd\ufffd' } });
  assert.equal(reportBytes([report as Report], '', '\n', '\n'), undefined, 'such bytes are not written as they came');
});

test('fast path: malformed envelopes around plain features fail as before', () => {
  const f = bench;
  const bad = [`{"features":[${f},]}`, `{"features":[${f}${f}]}`, `{"features":[${f}] "success":"x"}`, `{"features":[${f},{"properties":{}}`, `{"features":[${f}`];
  for (const text of bad) {
    const bytes = Buffer.from(text);
    for (const cut of [0, 20, bytes.length - 3]) {
      const s = new FeatureSplitter(200);
      assert.throws(() => {
        for (const c of cutAt(bytes, [cut])) s.cut(c);
        s.end();
      }, (err: unknown) => err instanceof ApiError && /status 200/.test(err.message), `${text} cut at ${cut}`);
    }
  }
});

test("a report run's points: no chunk searched, a report the reader read is its point (no Report round it), an unusual one a Report parsed when asked; the same points", () => {
  const text = body([bench, fast[1] as string, slow[1] as string, bench]);
  const want = new FeatureSplitter(200, new PointReader()).cut(text);
  const got = new FeatureSplitter(200, new PointReader()).cutPoints(text);
  assert.deepEqual(want.map((r) => r.verbatim), [true, true, true, true]);
  assert.deepEqual(got.map((r) => (r instanceof Report ? `Report, verbatim ${r.verbatim}` : r.constructor.name)), ['ReadPoint', 'ReadPoint', 'Report, verbatim false', 'ReadPoint']);
  assert.deepEqual(got.map((r) => r.checked), [true, true, false, true]);
  assert.deepEqual(got.map(pointFields), want.map(pointFields));
});

test('verbatim: exact for C1 (0xC2 0x80–0x9F), and a feature spanning chunks is dirty if any of its chunks was', () => {
  const s = new FeatureSplitter(200);
  s.cut(Buffer.from('{"features":['));
  assert.equal(s.cut(Buffer.from('{"properties":{"a":"12°"}},'))[0]?.verbatim, true, '0xC2 0xB0 is no control');
  assert.equal(s.cut(Buffer.from('{"properties":{"a":"\u0085"}},'))[0]?.verbatim, false);
  assert.equal(s.cut(Buffer.from('{"properties":{"a":1}},'))[0]?.verbatim, false, 'the chunk before was dirty');
  assert.equal(s.cut(Buffer.from('{"properties":{"a":1}},'))[0]?.verbatim, true);
  assert.deepEqual(s.cut(Buffer.from('{"properties":{"a":"\u0085')), []);
  assert.deepEqual(s.cut(Buffer.from('x')), []);
  const [spanning] = s.cut(Buffer.from('y"}},'));
  assert.equal(spanning?.text, '{"properties":{"a":"\u0085xy"}}');
  assert.equal(spanning?.verbatim, false, 'its first chunk, two chunks back, held a C1 control');
  const c1 = Buffer.from('\u0085');
  assert.deepEqual(s.cut(Buffer.concat([Buffer.from('{"properties":{"a":"'), c1.subarray(0, 1)])), []);
  const [split] = s.cut(Buffer.concat([c1.subarray(1), Buffer.from('"}},')]));
  assert.equal(split?.text, '{"properties":{"a":"\u0085"}}');
  assert.equal(split?.verbatim, false, 'a chunk ending in 0xC2 may end in half a C1 control');
  assert.equal(s.cut(Buffer.from('{"properties":{"a":1}}],"success":"ok"}'))[0]?.verbatim, true);
  s.end();
});

/** An IO that keeps stdout as bytes, with or without the bytes method. */
function bytesIO(withBytes: boolean): IO & { bytes(): Buffer } {
  const chunks: Buffer[] = [];
  const io = {
    stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(),
    stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false,
    columns: () => 80,
    out: async (text: string) => void chunks.push(Buffer.from(text, 'utf8')),
    ...(withBytes ? { outBytes: async (b: Uint8Array) => void chunks.push(Buffer.from(b)) } : {}),
    err: () => undefined,
    flush: async () => undefined,
    bytes: () => Buffer.concat(chunks),
  };
  return io;
}

async function write(format: 'ndjson' | 'geojson', batches: HistoryItem[][], withBytes: boolean): Promise<Buffer> {
  const io = bytesIO(withBytes);
  const out: OutputOptions = { io, format: 'table', header: true, color: false, tty: false, now: () => 0, timeZone: 'UTC' };
  const sink = openHistorySink({ format, out, title: 'Unit 1', columns: CSV_COLUMNS, flat: flatReport });
  for (const batch of batches) await sink.write(batch);
  await sink.end();
  assert.equal(sink.count, batches.flat().length);
  return io.bytes();
}

test('ndjson and geojson: the bytes as sent are the very bytes the text path writes, whatever the cuts', async () => {
  const nonUtf8 = Buffer.concat([Buffer.from('{"properties":{"a":"'), Buffer.from([0xe2, 0x28]), Buffer.from('"}}')]);
  const features = [bench, ...fast, ...slow, bench].map((f) => Buffer.from(f));
  features.splice(3, 0, nonUtf8);
  const raw = Buffer.concat([Buffer.from('{"features":['), ...features.flatMap((f, i) => (i === 0 ? [f] : [Buffer.from(','), f])), Buffer.from('],"success":"ok"}')]);
  for (let cut = 0; cut <= raw.length; cut += 5) {
    const s = new FeatureSplitter(200);
    const batches = cutAt(raw, [cut, Math.min(raw.length, cut + 700)]).map((c) => s.cut(c)).filter((b) => b.length > 0);
    s.end();
    // The text path as it was: each report's text, parsed, written through featureLine.
    const plain = batches.map((b) => b.map((r): HistoryItem => ({ text: r.text, feature: JSON.parse(r.text) as ReportFeature, verbatim: r.verbatim })));
    for (const format of ['ndjson', 'geojson'] as const) {
      const want = await write(format, plain, false);
      assert.deepEqual(await write(format, batches, true), want, `${format}, cut at ${cut}`);
      assert.deepEqual(await write(format, batches, false), want, `${format} without outBytes, cut at ${cut}`);
    }
  }
});

test('reportBytes: runs within a chunk, reports from several chunks, leads and separators', () => {
  const s = new FeatureSplitter(200);
  const all = [...s.cut(body([bench, fast[1] as string]).subarray(0, -20)), ...s.cut(body([bench, fast[1] as string]).subarray(-20))];
  s.end();
  const lines = (items: HistoryItem[]): string => items.map((i) => `${featureLine(i)}\n`).join('');
  assert.equal(all.length, 2);
  assert.equal(reportBytes(all, '', '\n', '\n')?.toString('utf8'), lines(all));
  assert.equal(reportBytes(all, 'L', ',\n', 'T')?.toString('utf8'), `L${all.map((i) => i.text).join(',\n')}T`);
  const plain: HistoryItem = { text: bench, feature: JSON.parse(bench) as ReportFeature, verbatim: true };
  assert.equal(reportBytes([...all, plain], '', '\n', '\n'), undefined, 'an item not cut from a reply has no bytes');
});

test('fast path: a feature of megabytes, over many chunks, is checked whole; a long run of them is cut out', () => {
  const big = JSON.stringify({ type: 'Feature', properties: { n: Array.from({ length: 300_000 }, (_, i) => i), s: 'x'.repeat(2_000_000) } });
  const bytes = body([bench, big, bench]);
  const s = new FeatureSplitter(200);
  const reports: Report[] = [];
  for (let at = 0; at < bytes.length; at += 65536) reports.push(...s.cut(bytes.subarray(at, at + 65536)));
  s.end();
  assert.deepEqual(reports.map((r) => r.text.length), [bench.length, big.length, bench.length]);
  assert.deepEqual(reports.map((r) => r.checked), [true, true, true]);
  const withPoints = new FeatureSplitter(200, new PointReader());
  const read: Report[] = [];
  for (let at = 0; at < bytes.length; at += 65536) read.push(...withPoints.cut(bytes.subarray(at, at + 65536)));
  withPoints.end();
  assert.deepEqual(read.map((r) => r.checked), [true, true, true], 'the point reader reads a joined feature whole');
  assert.deepEqual(read.map(pointFields), [bench, big, bench].map(pointOf));
  const many = body(Array.from({ length: 2000 }, () => bench));
  const t = new FeatureSplitter(200);
  const all = t.cut(many);
  t.end();
  assert.equal(all.length, 2000);
  assert.ok(all.every((r) => r.checked && r.source === many));
});

test('openHistory: the body is read a few chunks ahead at most, and a body that closes early is a NetworkError', async () => {
  let pulled = 0;
  function* source(): Generator<Buffer> {
    yield Buffer.from('{"features":[');
    for (let i = 0; i < 100; i++) {
      pulled++;
      yield Buffer.from(`${i ? ',' : ''}${bench}`);
    }
    yield Buffer.from('],"success":"ok"}');
  }
  const reply = await openHistory(fakeApiStream(Readable.from(source(), { highWaterMark: 1 })), 1, {});
  const first = await reply.batches.next();
  assert.equal(first.done, false);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(pulled < 20, `read ahead ${pulled} chunks while one batch was being written`);
  let count = (first.value as HistoryItem[]).length;
  for await (const batch of reply.batches) count += batch.length;
  assert.equal(count, 100);

  const early = new Readable({ read() {} });
  early.push(Buffer.from(`{"features":[${bench},`));
  setImmediate(() => early.destroy());
  const cut = await openHistory(fakeApiStream(early), 1, {});
  await assert.rejects(
    (async () => {
      for await (const _ of cut.batches);
    })(),
    (err: unknown) => err instanceof NetworkError && /dropped .* after \d+ bytes and 1 reports/.test(err.message),
  );
});

function fakeApiStream(stream: Readable): Api {
  return { stream: async () => ({ status: 200, headers: {}, body: stream }) } as unknown as Api;
}

test('openHistory: chunks that are already there when a batch is cut join it (one write for them, not one each)', async () => {
  const body = new Readable({ read() {} });
  body.push(Buffer.from(`{"features":[${bench}`));
  body.push(Buffer.from(`,${bench}`));
  body.push(Buffer.from(`,${bench}],"success":"ok"}`));
  body.push(null);
  const reply = await openHistory(fakeApiStream(body), 1, {});
  const sizes: number[] = [];
  for await (const batch of reply.batches) sizes.push(batch.length);
  assert.deepEqual(sizes, [3]);
});

/**
 * The shape check (FeatureCheck): an expression spelling out the member names of a feature seen
 * before. It must take exactly what the general expression takes, wherever the features differ
 * from the shape it learnt, and take the service's plain features itself.
 */
const SHAPE_NUMBERS = ['0', '-0', '7', '-12', '39.7', '42.5', '1e2', '2.5E+3', '1795292015', '0.5'];
const SHAPE_STRINGS = ['""', '"gps"', '"Bench unit"', '"Crème 日本 🚗"', '"quote \\" and \\\\ back"', '"\\u00e9"', '"\\/\\b\\f\\n\\r\\t"', '"\u007f del"'];
const shapeJson = messyJson({ numbers: SHAPE_NUMBERS, strings: SHAPE_STRINGS, names: ['a', 'b', 'type', 'coordinates', 'properties', '__proto__', 'é', 'x y'], bare: 0.9, flatFrom: 2, members: 3 });
/** Bytes that break a feature, or change its shape, where they stand in for one. */
const SPOILERS = ['"', '\\', ',', '}', ']', '{', '[', ':', '0', '.', 'e', '-', ' ', '\n', '\u0001', 'é', 'x', 'n'];

function shapedFeature(r: Random): string {
  const names = ['aid', 'did', 'name', 'lat', 'lng', 'temperature', 'extra'].filter((n) => n !== 'extra' || r.chance(0.1));
  const props = `{${names.map((n) => `"${n}":${r.chance(0.15) ? shapeJson.value(r, 1) : r.pick([...SHAPE_NUMBERS, ...SHAPE_STRINGS, 'null', 'true'])}`).join(',')}}`;
  const geometry = r.chance(0.1) ? 'null' : `{"type":"Point","coordinates":[${r.pick(SHAPE_NUMBERS)},${r.pick(SHAPE_NUMBERS)}${r.chance(0.1) ? ',1600' : ''}]}`;
  return `{"type":"Feature","properties":${props},"geometry":${geometry}}`;
}

function spoiled(r: Random, text: string): string {
  if (!r.chance(0.4)) return text;
  const at = r.int(text.length);
  return `${text.slice(0, at)}${r.pick(SPOILERS)}${text.slice(at + (r.chance(0.5) ? 1 : 0))}`;
}

test('shape check: the same ends as the general expression on messy features that share, break and change a shape', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = seeded(seed);
    const check = new FeatureCheck();
    let last: RegExp | undefined;
    let shaped = 0;
    for (let k = 0; k < 300; k++) {
      const text = spoiled(r, shapedFeature(r));
      const padded = `[${text},${text}`; // the feature in the middle of a chunk, with bytes after it
      const want = matchFeature(padded, 1);
      assert.equal(check.end(padded, 1), want, `seed ${seed} #${k}: ${text}`);
      if (want > 0) assert.doesNotThrow(() => JSON.parse(padded.slice(1, want)), text);
      // The shape of an earlier feature: whatever it takes, the general expression takes too, to the same end.
      if (last) {
        last.lastIndex = 1;
        if (last.test(padded)) {
          shaped++;
          assert.equal(last.lastIndex, want, `seed ${seed} #${k}: ${text} in the shape ${last.source}`);
        }
      }
      if (want > 0) last = featureShape(padded, 1, want) ?? last;
    }
    assert.ok(shaped > 30, `seed ${seed}: features took an earlier one's shape (${shaped})`);
  }
});

test('shape check: the service\'s features have a shape, which takes them and no feature the general expression refuses', () => {
  const shape = featureShape(bench, 0, bench.length);
  assert.ok(shape, 'the bench feature has a shape');
  const r = seeded(99);
  for (let k = 0; k < 3000; k++) {
    const text = spoiled(r, bench);
    shape.lastIndex = 0;
    const end: number = shape.test(text) ? shape.lastIndex : -1;
    if (end > 0) assert.equal(matchFeature(text, 0), end, text);
  }
  shape.lastIndex = 0;
  assert.ok(shape.test(bench) && shape.lastIndex === bench.length, 'the bench feature matches its shape');
});

test('ndjson into --output-file and --out-dir files: the bytes as sent, the same bytes as the text path', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'trackctl-bytes-'));
  try {
    // Reports that can be written as sent (UTF-8, no line break): reports that cannot are covered above.
    const raw = body([bench, fast[1] as string, bench, fast[6] as string, bench]);
    const s = new FeatureSplitter(200);
    const batches = cutAt(raw, [300, 700]).map((c) => s.cut(c)).filter((b) => b.length > 0);
    s.end();
    const want = await write('ndjson', batches, false);
    const base = bytesIO(false);
    // What each file IO is handed: Buffers only, no report text made along the way.
    const outputFile = new PassThrough({ decodeStrings: false });
    const written: unknown[] = [];
    outputFile.on('data', (d: unknown) => written.push(d));
    const file = fileIO(join(dir, 'unit.ndjson'));
    const kinds: string[] = [];
    const fileStream = file.io.stdout as Writable;
    const fileWrite = fileStream.write.bind(fileStream) as (chunk: unknown, cb?: () => void) => boolean;
    fileStream.write = ((chunk: unknown, cb?: () => void) => (kinds.push(chunk === '' ? 'flush' : typeof chunk), fileWrite(chunk, cb))) as typeof fileStream.write;
    for (const io of [ioWithStdout(base, outputFile), file.io]) {
      const out: OutputOptions = { io, format: 'table', header: true, color: false, tty: false, now: () => 0, timeZone: 'UTC' };
      const sink = openHistorySink({ format: 'ndjson', out, title: 'Unit 1', columns: CSV_COLUMNS, flat: flatReport });
      for (const batch of batches) await sink.write(batch);
      await sink.end();
    }
    await file.close();
    assert.deepEqual(Buffer.concat(written.map((d) => (typeof d === 'string' ? Buffer.from(d) : (d as Buffer)))), want);
    assert.ok(written.filter((d) => typeof d === 'string').every((d) => d === ''), 'the reports reach the --output-file stream as bytes');
    assert.deepEqual(await readFile(join(dir, 'unit.ndjson')), want);
    assert.ok(kinds.length > 0 && kinds.every((k) => k !== 'string'), `the reports reach the --out-dir file as bytes: ${kinds.join(' ')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('shape check: a reply whose features keep changing shape stops learning shapes (no expression compiled per few reports)', () => {
  const check = new FeatureCheck();
  const before = shapesCompiled;
  for (let k = 0; k < 5000; k++) {
    const text = `{"type":"Feature","properties":{"m${k}":${k}},"geometry":null}`;
    assert.equal(check.end(text, 0), text.length);
  }
  assert.ok(shapesCompiled - before <= 8, `${shapesCompiled - before} expressions compiled for 5000 features of 5000 shapes`);
});
