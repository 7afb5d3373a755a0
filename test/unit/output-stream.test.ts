import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../src/errors.js';
import { openStream, renderList, type Column, type OutputFormat, type OutputOptions, type Rec } from '../../src/io/formats/output.js';
import { displayWidth } from '../../src/io/formats/render/width.js';
import { memoryIO } from '../helpers/io.js';

/** An IO over buffers; `text()` is stdout so far. */
type TestOptions = OutputOptions & { io: ReturnType<typeof memoryIO> };
function options(format: OutputFormat, extra: Partial<OutputOptions> & { width?: number } = {}): TestOptions {
  const { width, ...rest } = extra;
  const io = memoryIO(extra.tty ?? false, width);
  return { io, format, header: true, color: false, tty: false, now: () => 1_800_000_000_000, timeZone: 'UTC', ...rest } as TestOptions;
}

const reports: Rec[] = [
  { id: 1, type: 'gps', time: 1_799_990_000, text: 'a, "b"' },
  { id: 2, type: 'sos', time: 1_799_990_060, text: 'line\nbreak' },
  { id: 3, type: 'gps', time: 1_799_990_120, text: '=cmd' },
];
const columns: Column[] = [{ key: 'id', kind: 'number' }, { key: 'type' }, { key: 'time', kind: 'age' }, { key: 'text', shrink: true }];

test('json streams an array: each record is out as soon as it is written', async () => {
  const opts = options('json');
  const stream = openStream(columns, opts);
  await stream.write(reports[0] ?? {});
  assert.match(opts.io.text(), /^\[\n {2}\{\n {4}"id": 1/);
  assert.match(opts.io.text(), /"text": "a, \\"b\\""\n {2}\}$/);
  for (const rec of reports.slice(1)) await stream.write(rec);
  await stream.end();
  assert.deepEqual(JSON.parse(opts.io.text()), reports);
  const whole = options('json');
  await renderList(reports, columns, whole);
  assert.equal(opts.io.text(), whole.io.text(), 'same text as the non-streaming list');
});

test('an empty json stream is []', async () => {
  const opts = options('json');
  const stream = openStream(columns, opts);
  await stream.end();
  assert.equal(opts.io.text(), '[]\n');
});

test('ndjson streams one line per record, projected by --fields', async () => {
  const opts = options('ndjson', { fields: ['type', 'id'] });
  const stream = openStream(columns, opts);
  await stream.write(reports[0] ?? {});
  assert.equal(opts.io.text(), '{"type":"gps","id":1}\n');
  await stream.write(reports[1] ?? {});
  await stream.end();
  assert.equal(opts.io.text(), '{"type":"gps","id":1}\n{"type":"sos","id":2}\n');
});

test('write waits for io.out, so a slow consumer holds the producer back', async () => {
  const opts = options('ndjson');
  let release: () => void = () => undefined;
  opts.io.out = () => new Promise<void>((resolve) => { release = resolve; });
  let written = false;
  const writing = openStream(columns, opts).write(reports[0] ?? {}).then(() => { written = true; });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(written, false);
  release();
  await writing;
  assert.equal(written, true);
});

test('csv streams a header then rows; with no records just the header', async () => {
  const opts = options('csv');
  const stream = openStream(columns, opts);
  for (const rec of reports) await stream.write(rec);
  await stream.end();
  const rows = parseCsv(opts.io.text()) as string[][];
  assert.deepEqual(rows[0], ['id', 'type', 'time', 'text']);
  assert.deepEqual(rows.slice(1).map((row) => row[3]), ['a, "b"', 'line\nbreak', "'=cmd"]);
  const empty = options('csv');
  await openStream(columns, empty).end();
  assert.equal(empty.io.text(), 'id,type,time,text\r\n');
});

test('yaml streams items of one sequence', async () => {
  const opts = options('yaml');
  const stream = openStream(columns, opts);
  for (const rec of reports) await stream.write(rec);
  await stream.end();
  assert.deepEqual(parseYaml(opts.io.text()), reports);
});

test('piped table streams TSV rows with RFC 3339 times', async () => {
  const opts = options('table');
  const stream = openStream(columns, opts);
  await stream.write(reports[0] ?? {});
  assert.equal(opts.io.text(), 'ID\tTYPE\tTIME\tTEXT\n1\tgps\t2027-01-15T05:13:20Z\ta, "b"\n');
  await stream.end();
});

test('an unknown --fields key fails the first write with a usage error', async () => {
  const opts = options('json', { fields: ['nope'] });
  await assert.rejects(openStream(columns, opts).write(reports[0] ?? {}), UsageError);
  assert.equal(opts.io.text(), '');
});

test('terminal table buffers 200 rows to size columns, then keeps those widths', async () => {
  const opts = options('table', { tty: true, width: 30 });
  const stream = openStream(columns, opts);
  for (let id = 1; id < 200; id += 1) await stream.write({ id, type: 'gps', time: 1_799_999_000, text: 'short' });
  assert.equal(opts.io.text(), '', 'still sizing');
  await stream.write({ id: 200, type: 'gps', time: 1_799_999_000, text: 'short' });
  assert.equal(opts.io.text().split('\n').length, 202, 'header + 200 rows');
  await stream.write({ id: 201, type: 'a much longer type than before', time: 1_799_999_000, text: 'and a long text' });
  await stream.end();
  const lines = opts.io.text().trimEnd().split('\n');
  assert.equal(lines.length, 202);
  assert.match(lines[0] ?? '', /^ ID {2}TYPE {2}TIME +TEXT$/, 'number headers align right');
  assert.match(lines.at(-1) ?? '', /^201 {2}a m… {2}16 min ago {2}and …$/);
  for (const line of lines) assert.ok(displayWidth(line) <= 30);
});

test('terminal table shows buffered rows after a second even if fewer than 200 come', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const opts = options('table', { tty: true });
    const stream = openStream(columns, opts);
    await stream.write(reports[0] ?? {});
    assert.equal(opts.io.text(), '');
    mock.timers.tick(1000);
    await stream.write(reports[1] ?? {});
    assert.equal(opts.io.text().split('\n').length, 4, 'header, the flushed row, then the next row');
    await stream.end();
  } finally {
    mock.timers.reset();
  }
});

test('an empty terminal table stream prints nothing', async () => {
  const opts = options('table', { tty: true });
  await openStream(columns, opts).end();
  assert.equal(opts.io.text(), '');
});
