/**
 * The point reader's shape (src/api/report-point-shape.ts) against its member by member way and
 * against JSON.parse: streams of alike reports, as a service sends them, made messy (values
 * escaped, non-ASCII, null, odd numbers, a learnt value's prefix or extension; members missing,
 * extra, reordered; white space; a byte broken; the shape changing part-way), read by one reader
 * with its shapes and one without, chunk by chunk, and through the splitter with chunks cut anywhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureSplitter } from '../../src/api/feature-splitter.js';
import { PointReader } from '../../src/api/report-point.js';
import { shapeReads } from '../../src/api/report-point-shape.js';
import { messyJson, seeded, type Random } from '../helpers/messy-json.js';
import { expected, WANTED } from '../helpers/report-points.js';

const OTHER = ['aid', 'availability', 'alt', 'heading', 'source', 'battery', 'precision', 'temperature'];

/** Each value next to ones that extend it, cut it short or write the same number otherwise. */
const NUMBERS = [
  '1000', '10000', '100', '1000.5', '1e3', '1E3', '1000.0', '-0', '0', '-0.0', '42.5', '42.55', '4', '39.7', '39.70', '39.7001', '-104.9', '-104.90001',
  '1794885941', '17948859410', '9007199254740993', '123456789012345678901', '1e400', '5e-324', '0.30000000000000004',
];
const STRINGS = [
  '"Bench unit"', '"Bench unit 2"', '"Bench uni"', '"1 Bench St, Denver, CO"', '"report"', '"reports"', '"periodic"', '"Crème brûlée 日本 🚗"',
  '"quote \\" and \\\\ back"', '"\\u0042ench unit"', '"lone \\ud800"', '"61.5"', '" 12 "', '"1e3"', '""', '"\u007f del"',
];
const { ws, value } = messyJson({ numbers: NUMBERS, strings: STRINGS, names: ['a', 'lat', 'x'], bare: 0.3, flatFrom: 2, members: 3 });

/** A usual shape: the members of a report in order, each with its value's text. */
function shapeOf(r: Random): [string, string][] {
  const names = [...WANTED, ...OTHER].filter(() => r.chance(0.9)).sort(() => r.int(5) - 2);
  return names.map((n) => [n, r.pick(r.chance(0.5) ? NUMBERS : STRINGS)]);
}

/** The next report of a stream: most values as before, a few changed, now and then something unusual. */
function next(r: Random, members: [string, string][]): string {
  for (let c = r.int(4); c >= 0; c--) {
    const m = members[r.int(members.length)] as [string, string];
    m[1] = r.chance(0.9) ? r.pick(r.chance(0.6) ? NUMBERS : STRINGS) : r.chance(0.5) ? 'null' : value(r, 1);
  }
  let props = members;
  if (r.chance(0.02)) props = props.filter(() => r.chance(0.8)); // members missing
  if (r.chance(0.02)) props = [...props, [r.pick([...WANTED, 'extra']), r.pick(NUMBERS)]]; // extra or repeated
  if (r.chance(0.02)) props = [...props].sort(() => r.int(3) - 1); // another order
  const sep = r.chance(0.02) ? ws(r) : '';
  const geometry = r.chance(0.95) ? `{"type":"Point","coordinates":[${r.pick(NUMBERS)},${r.pick(NUMBERS)}]}` : r.pick(['null', '{"type":"Point","coordinates":[1,2,3]}', '"x"']);
  const text = `{"type":"Feature","properties":{${props.map(([n, v]) => `"${n}":${sep}${v}`).join(',')}},"geometry":${geometry}}`;
  if (!r.chance(0.02)) return text;
  const at = r.int(text.length); // a byte broken
  return text.slice(0, at) + r.pick(['', '"', '}', ',', ' ', '0', '\\', '\u0000']) + text.slice(at + 1);
}

/** A reply's reports: a stream of alike reports whose shape changes now and then for good. */
function stream(r: Random, count: number): string[] {
  let members = shapeOf(r);
  const texts: string[] = [];
  for (let k = 0; k < count; k++) {
    if (r.chance(0.01)) members = shapeOf(r);
    texts.push(next(r, members));
  }
  return texts;
}

const wanted = (p: { properties: object } | undefined) => p && Object.fromEntries(WANTED.map((k) => [k, (p.properties as Record<string, unknown>)[k]]));

test('point reader: the shape reads every report as the member reader does, value for value, where each ends', () => {
  const before = shapeReads;
  let reports = 0;
  for (let seed = 1; seed <= 120; seed++) {
    const r = seeded(seed);
    const texts = stream(r, 300);
    const shaped = new PointReader();
    const members = new PointReader(false);
    for (let k = 0; k < texts.length; ) {
      const batch = texts.slice(k, k + 1 + r.int(8));
      const lead = '{"features":[';
      const chunk = Buffer.from(`${lead}${batch.join(',')},{"properties":{}}]}`, 'utf8');
      shaped.load(chunk);
      members.load(chunk);
      let at = Buffer.byteLength(lead);
      for (const text of batch) {
        const got = shaped.read(at);
        const want = members.read(at);
        const where = `seed ${seed}, report ${k}: ${text}`;
        assert.deepEqual(wanted(got), wanted(want), where);
        if (want !== undefined) assert.equal(shaped.end, members.end, `${where}: ends where the member reader ends`);
        // and both as JSON.parse reads the bytes they took
        if (got !== undefined) assert.deepEqual(wanted(got), expected(chunk.toString('utf8', at, shaped.end)), where);
        at += Buffer.byteLength(text) + 1;
        k++;
        reports++;
      }
    }
  }
  assert.ok(shapeReads - before > reports / 2, `the shape read most reports (${shapeReads - before} of ${reports})`);
});

test('point reader: through the splitter, chunks cut anywhere, every report read as JSON.parse reads it', () => {
  const before = shapeReads;
  for (let seed = 1; seed <= 60; seed++) {
    const r = seeded(1000 + seed);
    const texts = stream(r, 300).filter((t) => expected(t) !== undefined);
    const reply = Buffer.from(`{"features":[${texts.join(',')}],"success":"ok"}`, 'utf8');
    const splitter = new FeatureSplitter(200, new PointReader());
    const got: Record<string, unknown>[] = [];
    for (let i = 0; i < reply.length; ) {
      const size = 1 + r.int(r.chance(0.5) ? 64 : 4096);
      for (const report of splitter.cut(reply.subarray(i, i + size))) got.push(wanted(report.point) as Record<string, unknown>);
      i += size;
    }
    splitter.end();
    assert.equal(got.length, texts.length, `seed ${seed}: every report`);
    for (const [k, text] of texts.entries()) assert.deepEqual(got[k], expected(text), `seed ${seed}, report ${k}: ${text}`);
  }
  assert.ok(shapeReads > before, 'the shape read reports');
});
