import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../src/errors.js';
import { memoryIO } from '../helpers/io.js';
import {
  OUTPUT_FORMATS, parseFields, parseFormatFrom, renderList, renderRaw, renderRecord,
  type Column, type OutputFormat, type OutputOptions, type Rec,
} from '../../src/io/formats/output.js';

/** An IO over buffers: what the command wrote to stdout is `text()`. */
function options(format: OutputFormat, extra: Partial<OutputOptions> = {}): OutputOptions & { io: ReturnType<typeof memoryIO> } {
  const io = memoryIO(extra.tty ?? false);
  return { io, format, header: true, color: false, tty: false, now: () => 1_800_000_000_000, timeZone: 'UTC', ...extra } as OutputOptions & { io: ReturnType<typeof memoryIO> };
}

const devices: Rec[] = [
  { did: 1, name: 'Truck 7', isActive: 1, lastGPSTimestamp: 1_799_999_700, groupMember: [3, 4], lastBatteryLevel: -12.5 },
  { did: 2, name: 'Van, "blue"\nline two', isActive: 0, lastGPSTimestamp: null, groupMember: [], note: '=HYPERLINK("http://x")' },
];
const columns: Column[] = [
  { key: 'did', header: 'DID', kind: 'number' },
  { key: 'name', shrink: true },
  { key: 'isActive', kind: 'bool' },
  { key: 'lastGPSTimestamp', header: 'LAST REPORT', kind: 'age' },
  { key: 'groupMember', kind: 'list' },
];

test('json list prints the records as given, in order, as an array', async () => {
  const opts = options('json');
  await renderList(devices, columns, opts);
  assert.deepEqual(JSON.parse(opts.io.text()), devices);
  assert.ok(opts.io.text().startsWith('[\n  {\n    "did": 1'), 'pretty-printed with 2 spaces');
});

test('--fields projects json to those keys in that order; missing keys are null', async () => {
  const opts = options('json', { fields: ['name', 'did', 'note'] });
  await renderList(devices, columns, opts);
  const parsed = JSON.parse(opts.io.text()) as Rec[];
  assert.deepEqual(Object.keys(parsed[0] ?? {}), ['name', 'did', 'note']);
  assert.deepEqual(parsed[0], { name: 'Truck 7', did: 1, note: null });
  assert.equal(parsed[1]?.note, '=HYPERLINK("http://x")', 'json keeps data unchanged');
});

test('an unknown --fields key is a usage error naming it and the available fields', async () => {
  const opts = options('csv', { fields: ['name', 'colour'] });
  await assert.rejects(renderList(devices, columns, opts), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /"colour"/);
    assert.match(error.message, /available fields: .*did.*name.*note/);
    return true;
  });
  assert.equal(opts.io.text(), '', 'nothing written');
});

test('ndjson prints one compact record per line', async () => {
  const opts = options('ndjson');
  await renderList(devices, columns, opts);
  const lines = opts.io.text().trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.deepEqual(lines.map((line) => JSON.parse(line) as Rec), devices);
});

test('json escapes ESC and C1 control characters, and the value survives', async () => {
  const name = 'evil\x1b[2J\x1b]52;c;aGk=\x07\x9b31m';
  const opts = options('json');
  await renderRecord({ name }, [], opts);
  assert.doesNotMatch(opts.io.text(), /[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  assert.match(opts.io.text(), /\\u001b\[2J/);
  assert.equal((JSON.parse(opts.io.text()) as Rec).name, name);
});

test('json escapes the bidirectional overrides and isolates, and the value survives', async () => {
  const name = 'Van \u202e7 \u2066x\u2069';
  const opts = options('json');
  await renderRecord({ name }, [], opts);
  assert.doesNotMatch(opts.io.text(), /[\u202a-\u202e\u2066-\u2069]/);
  assert.match(opts.io.text(), /\\u202e/);
  assert.equal((JSON.parse(opts.io.text()) as Rec).name, name);
});

test('csv parses back: header of keys, quotes, commas, newlines, lists, formula neutralised', async () => {
  const opts = options('csv', { fields: ['did', 'name', 'groupMember', 'lastBatteryLevel', 'note', 'lastGPSTimestamp'] });
  await renderList(devices, columns, opts);
  assert.match(opts.io.text(), /\r\n$/);
  const rows = parseCsv(opts.io.text()) as string[][];
  assert.deepEqual(rows[0], ['did', 'name', 'groupMember', 'lastBatteryLevel', 'note', 'lastGPSTimestamp']);
  assert.deepEqual(rows[1], ['1', 'Truck 7', '3 4', '-12.5', '', '1799999700']);
  assert.deepEqual(rows[2], ['2', 'Van, "blue"\nline two', '', '', '\'=HYPERLINK("http://x")', '']);
});

test('csv neutralises every formula start in text, but not real numbers', async () => {
  const starts = ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '-\rx'];
  const records = starts.map((text) => ({ text, n: -3 }));
  const opts = options('csv', { header: false });
  await renderList(records, [{ key: 'text' }, { key: 'n', kind: 'number' }], opts);
  const rows = parseCsv(opts.io.text()) as string[][];
  // CR is a control character, stripped like the rest before neutralising.
  assert.deepEqual(rows.map((row) => row[0]), ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'-x"]);
  assert.ok(rows.every((row) => row[1] === '-3'));
});

test('csv strips control sequences from service text', async () => {
  const opts = options('csv');
  await renderList([{ name: 'a\x1b[31mred\x1b[0m\x07' }], [{ key: 'name' }], opts);
  assert.deepEqual(parseCsv(opts.io.text()), [['name'], ['ared']]);
});

test('yaml prints a sequence for a list and a mapping for a record, control characters escaped', async () => {
  const list = options('yaml');
  await renderList(devices, columns, list);
  assert.deepEqual(parseYaml(list.io.text()), devices);
  const one = options('yaml', { fields: ['name'] });
  await renderRecord({ name: 'x\x9by\x1bz', did: 5 }, columns, one);
  assert.doesNotMatch(one.io.text(), /[\x1b\x7f-\x9f]/);
  assert.deepEqual(parseYaml(one.io.text()), { name: 'x\x9by\x1bz' });
});

test('yaml escapes the bidirectional overrides and isolates, in values and keys, and the values survive', async () => {
  const rec = { name: 'Van \u202e7 \u2066x\u2069', note: 'line one\nline \u202etwo', ['k\u200e']: 1 };
  const opts = options('yaml');
  await renderRecord(rec, [], opts);
  assert.doesNotMatch(opts.io.text(), /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  assert.match(opts.io.text(), /\\u202e/);
  assert.deepEqual(parseYaml(opts.io.text()), rec);
});

test('yaml reads back the same under YAML 1.1 too: strings 1.1 takes for booleans, dates, numbers or its keys are quoted', async () => {
  const names = ['=', '<<', 'yes', 'No', 'on', 'OFF', 'y', '2026-11-29', '2026-11-29 10:00:00', '1_000', '01:30', '0x1F', '017', '~', 'Null', '.inf', 'plain name'];
  const rec = Object.fromEntries(names.map((n, i) => [`k${i}`, n]));
  const values = { ...rec, n: 12, f: 1.5, t: true, z: null, list: ['yes', 3] };
  const opts = options('yaml');
  await renderRecord(values, [], opts);
  const text = opts.io.text();
  assert.deepEqual(parseYaml(text), values, 'YAML 1.2');
  assert.deepEqual(parseYaml(text, { version: '1.1' }), values, 'YAML 1.1');
  assert.match(text, /^k0: "="$/m, "1.1's value key");
  assert.match(text, /^k14: "Null"$/m);
  assert.match(text, /^k16: plain name$/m, 'an ordinary string stays plain');
});

test('renderRecord: json is the one record, csv is header plus one row', async () => {
  const json = options('json');
  await renderRecord(devices[0] ?? {}, columns, json);
  assert.deepEqual(JSON.parse(json.io.text()), devices[0]);
  const csv = options('csv');
  await renderRecord(devices[0] ?? {}, columns, csv);
  assert.equal((parseCsv(csv.io.text()) as string[][]).length, 2);
});

test('parseFormatFrom accepts the formats case-insensitively and names the allowed list on error', () => {
  assert.equal(parseFormatFrom('JSON', OUTPUT_FORMATS), 'json');
  assert.equal(parseFormatFrom(undefined, OUTPUT_FORMATS), 'table');
  assert.equal(parseFormatFrom('csv', ['table', 'csv']), 'csv');
  assert.throws(() => parseFormatFrom('xml', OUTPUT_FORMATS), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /"xml".*table, json, ndjson, csv, yaml/);
    return true;
  });
  assert.throws(() => parseFormatFrom('yaml', ['table', 'json']), /use one of: table, json$/);
  assert.equal(parseFormatFrom('gpx', ['json', 'geojson', 'gpx'] as const), 'gpx');
});

test('parseFields splits, trims and de-duplicates; an empty list is a usage error', () => {
  assert.equal(parseFields(undefined), undefined);
  assert.deepEqual(parseFields(' name, did ,name'), ['name', 'did']);
  assert.throws(() => parseFields(' , '), UsageError);
});

test('renderRaw writes the body unchanged when piped and sanitised on a terminal', async () => {
  const body = '{"a":"\x1b[2J"}';
  const piped = options('json');
  await renderRaw(body, piped);
  assert.equal(piped.io.text(), body);
  const terminal = options('json', { tty: true });
  await renderRaw(body, terminal);
  assert.equal(terminal.io.text(), '{"a":""}');
});

test('machine output does not load chalk, yaml or cli-table3 at start-up (imports are lazy)', async () => {
  const dir = 'src/io/formats/render';
  const files = ['src/io/formats/output.ts', ...(await readdir(dir)).map((name) => `${dir}/${name}`)];
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    assert.doesNotMatch(source, /^import(?! type)[^;]*from '(chalk|yaml|cli-table3)'/m, `${file} imports a heavy package statically`);
  }
});
