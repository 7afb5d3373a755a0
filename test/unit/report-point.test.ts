/**
 * The point reader against V8's JSON.parse (an independent implementation): on generated
 * reports, valid and broken, it accepts only what JSON.parse accepts as a feature, takes every
 * usual one, ends where the report ends, and gives each wanted value exactly as
 * tolerantFeature(JSON.parse(text)) does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PointReader } from '../../src/api/report-point.js';
import { broken, messyJson, seeded, type Random } from '../helpers/messy-json.js';
import { expected, replyChunk, WANTED } from '../helpers/report-points.js';

const OTHER = ['aid', 'alt', 'heading', 'source', 'battery', 'x', 'späť', 'properties', 'geometry', ''];


const NUMBERS = [
  '0', '-0', '7', '-12', '39.7392', '-104.9903', '42.5', '0.1', '0.30000000000000004', '123456789012345', '1234567890123456789',
  '9007199254740993', '1.7976931348623157e308', '1e400', '-1e-400', '5e-324', '1E2', '2.5e+3', '1e-7', '0.000001', '100.0',
  '1795292015', '3.141592653589793238462643383279', '12345.678901234567', '0.00000000000000000000001234',
];
const STRINGS = [
  '""', '"gps"', '"Bench unit"', '"1 Bench St, Denver, CO"', '"Crème brûlée 日本 🚗"', '"quote \\" and \\\\ back"', '"\\u00e9\\ud83d\\ude97"',
  '"lone \\ud800"', '"\\/\\b\\f\\n\\r\\t"', '"61.5"', '" 12 "', '"1e3"', '"abc"', '"\u007f del"', '"motion_state"', '"moving"', '"stopped"',
];

const { ws, value, object } = messyJson({ numbers: NUMBERS, strings: STRINGS, names: OTHER, bare: 0.8, flatFrom: 3, members: 4 });

/** A report: usual members in any order, repeats, odd values, white space anywhere. */
function report(r: Random): string {
  const names = [...WANTED.filter(() => r.chance(0.8)), ...Array.from({ length: r.int(5) }, () => r.pick(OTHER))];
  if (r.chance(0.1)) names.push(r.pick(WANTED)); // a repeated name: the last counts
  names.sort(() => r.int(3) - 1);
  const properties = object(r, names, (n) => (WANTED.includes(n) && r.chance(0.7) ? r.pick(r.chance(0.6) ? NUMBERS : STRINGS) : value(r, 2)));
  const members = [`"properties"${ws(r)}:${ws(r)}${properties}`, `"type":"Feature"`, `"geometry":{"type":"Point","coordinates":[${r.pick(NUMBERS)},${r.pick(NUMBERS)}]}`];
  if (r.chance(0.3)) members.push(`"extra":${value(r, 1)}`);
  members.sort(() => r.int(3) - 1);
  return `{${ws(r)}${members.join(`${ws(r)},${ws(r)}`)}${ws(r)}}`;
}

/** Reads `text` as a report inside a chunk of a reply (other bytes before and after it). */
function readPoint(text: string): { point: Record<string, unknown> | undefined; end: number; taken: string } {
  const lead = '{"features":[';
  const chunk = Buffer.from(`${lead}${text},{"properties":{}}]}`, 'utf8');
  const reader = new PointReader();
  reader.load(chunk);
  const start = Buffer.byteLength(lead);
  const point = reader.read(start);
  return {
    point: point && Object.fromEntries(WANTED.map((k) => [k, (point.properties as Record<string, unknown>)[k]])),
    end: reader.end - start,
    taken: chunk.toString('utf8', start, reader.end),
  };
}

test('point reader: every generated report read as JSON.parse and tolerantFeature read it', () => {
  for (let seed = 1; seed <= 20_000; seed++) {
    const text = report(seeded(seed));
    const want = expected(text);
    assert.ok(want, `seed ${seed}: the generator made a valid report: ${text}`);
    const got = readPoint(text);
    assert.deepEqual(got.point, want, `seed ${seed}: ${text}`);
    assert.equal(got.end, Buffer.byteLength(text), `seed ${seed}: ends where the report ends`);
  }
});

test('point reader: a broken report is refused unless JSON.parse takes it too, and then read alike', () => {
  let refused = 0;
  for (let seed = 1; seed <= 20_000; seed++) {
    const r = seeded(seed);
    const text = broken(r, report(r));
    const got = readPoint(text);
    if (got.point === undefined) {
      refused++;
      continue;
    }
    // Accepted: the bytes it took (up to the brace that closed them, which may lie in what follows a cut-off report) are a feature JSON.parse reads to the same values.
    assert.ok(expected(got.taken), `seed ${seed}: took what JSON.parse refuses: ${got.taken}`);
    assert.deepEqual(got.point, expected(got.taken), `seed ${seed}: ${text}`);
  }
  assert.ok(refused > 10_000, `most broken reports are refused (${refused})`);
});

test('point reader: numbers are the doubles JSON.parse gives, to the last bit', () => {
  const r = seeded(7);
  for (let k = 0; k < 50_000; k++) {
    const digits = 1 + r.int(19);
    let s = `${r.chance(0.3) ? '-' : ''}${1 + r.int(9)}${Array.from({ length: digits - 1 }, () => r.int(10)).join('')}`;
    const dot = r.int(s.length + 3);
    if (dot > 0 && dot < s.replace('-', '').length) {
      const neg = s.startsWith('-');
      const d = neg ? s.slice(1) : s;
      s = `${neg ? '-' : ''}${d.slice(0, dot)}.${d.slice(dot)}`;
    } else if (r.chance(0.3)) s = `${s.startsWith('-') ? '-' : ''}0.${'0'.repeat(r.int(25))}${s.replace('-', '')}`;
    const got = readPoint(`{"properties":{"lat":${s}}}`).point?.lat;
    assert.ok(Object.is(got, JSON.parse(s)), `${s}: ${String(got)} ≠ ${String(JSON.parse(s))}`);
  }
});

test('point reader: unusual but valid reports are left to JSON.parse', () => {
  const unusual = [
    '{"propert\\u0069es":{"lat":1}}', // an escaped name at the top
    '{"properties":{"l\\u0061t":1}}', // an escaped name among the properties
    '{"properties":{"lat":1},"properties":{"lat":2}}', // a second properties
    '{"properties":[1]}', // not an object (parseFeature takes it)
    `{"properties":{"a":${'['.repeat(70)}${']'.repeat(70)}}}`, // deeper than the reader goes
  ];
  for (const text of unusual) {
    JSON.parse(text);
    assert.equal(readPoint(text).point, undefined, text);
  }
  assert.deepEqual(readPoint(`{"properties":{"a":${'['.repeat(60)}${']'.repeat(60)},"lat":2}}`).point?.lat, 2, 'nesting within the limit');
});

test('point reader: bytes that are not UTF-8 read as U+FFFD, as JSON.parse reads the decoded text', () => {
  const chunk = Buffer.concat([Buffer.from('{"properties":{"name":"x'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('","address":"a'), Buffer.from([0xc3]), Buffer.from('"}}')]);
  const reader = new PointReader();
  reader.load(chunk);
  const point = reader.read(0);
  const want = JSON.parse(chunk.toString('utf8')) as { properties: { name: string; address: string } };
  assert.equal(point?.properties.name, want.properties.name);
  assert.equal(point?.properties.address, want.properties.address);
  assert.equal(reader.end, chunk.length);
});

test('point reader: a name like the one at its place in the report before (a prefix, longer, other case, escaped) is read as what it is', () => {
  // The reader guesses each name from the report before (same place): every guess that is wrong must be caught.
  const shapes = [
    ['lat', 'lng', 'speed', 'name', 'date'],
    ['la', 'lngx', 'speed', 'Name', 'date'],
    ['latt', 'ln', 'sp', 'name\\u0000', 'dat'],
    ['lat', 'lng', 'spee\\u0064', 'name', 'date'],
    ['x', 'lat', 'lng', 'speed', 'name', 'date'],
    ['lat', 'lng', 'speed', 'name', 'date'],
  ];
  const values = ['"61.5"', 'null', '-0', '1e400', '1.5E-3', '"Crème \\"brûlée\\" 🚗"', '123456789012345678901', '" 12 "', '{"a":[1,"x"]}'];
  for (let round = 0; round < 3; round++) {
    for (const [s, names] of shapes.entries()) {
      const text = `{"type":"Feature","properties":{${names.map((n, k) => `"${n}":${values[(s + k + round) % values.length]}`).join(',')}},"geometry":null}`;
      const want = expected(text);
      const got = readPoint(text);
      if (got.point === undefined) {
        assert.ok(names.some((n) => n.includes('\\')), `refused only for an escaped name: ${text}`);
        continue;
      }
      assert.deepEqual(got.point, want, text);
    }
  }
});

test('point reader: a stream of alike reports, read in chunks by one reader, as JSON.parse reads each (members taken again from the report before)', () => {
  // A member whose bytes are those of the member at its place in the report before is taken as
  // read then: each report changes a few values, and now and then a name, the order or a byte.
  for (let seed = 1; seed <= 300; seed++) {
    const r = seeded(seed);
    const names = [...WANTED, ...OTHER.slice(0, 6)].sort(() => r.int(3) - 1);
    const members: [string, string][] = names.map((n) => [n, r.pick(r.chance(0.5) ? NUMBERS : STRINGS)]);
    const reader = new PointReader();
    const texts: string[] = [];
    for (let k = 0; k < 60; k++) {
      for (let c = r.int(4); c >= 0; c--) {
        const m = members[r.int(members.length)] as [string, string];
        if (r.chance(0.8)) m[1] = r.chance(0.7) ? r.pick(r.chance(0.5) ? NUMBERS : STRINGS) : value(r, 2);
        else if (r.chance(0.5)) m[0] = r.pick([...WANTED, ...OTHER]);
        else members.push(members.splice(r.int(members.length), 1)[0] as [string, string]);
      }
      const sep = r.chance(0.1) ? ' ' : '';
      // mostly the usual point geometry, whose coordinates change (a usual opening and geometry are compared with their usual bytes)
      const geometry = r.chance(0.8) ? `{"type":"Point","coordinates":[${r.pick(NUMBERS)},${r.pick(NUMBERS)}]}` : 'null';
      const text = `{"type":"Feature","properties":{${members.map(([n, v]) => `"${n}":${sep}${v}`).join(',')}},"geometry":${geometry}}`;
      texts.push(r.chance(0.05) ? broken(r, text) : text);
    }
    // chunks of one to five reports: the reader keeps the members it compares with across loads
    for (let k = 0; k < texts.length; ) {
      const batch = texts.slice(k, k + 1 + r.int(5));
      const { chunk, first } = replyChunk(batch);
      reader.load(chunk);
      let at = first;
      for (const text of batch) {
        const point = reader.read(at);
        // a broken report may be taken when the bytes it took (they may run into the next report) are a feature
        const taken = point === undefined ? text : chunk.toString('utf8', at, reader.end);
        const want = expected(taken);
        // valid but unusual (an escaped name: a byte broken into an escape) is left to JSON.parse
        if (point === undefined) assert.ok(want === undefined || text.includes('\\'), `seed ${seed}, report ${k}: refused a valid report: ${text}`);
        else {
          assert.deepEqual(Object.fromEntries(WANTED.map((n) => [n, (point.properties as Record<string, unknown>)[n]])), want, `seed ${seed}, report ${k}: ${text}`);
          if (expected(text)) assert.equal(reader.end, at + Buffer.byteLength(text), `seed ${seed}, report ${k}: ends where the report ends`);
        }
        at += Buffer.byteLength(text) + 1;
        k++;
      }
    }
  }
});
