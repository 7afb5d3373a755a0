import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderList, renderRecord, type Column, type OutputOptions, type Rec } from '../../src/io/formats/output.js';
import { displayWidth } from '../../src/io/formats/render/width.js';
import { fitWidths } from '../../src/io/formats/render/table.js';
import { memoryIO } from '../helpers/io.js';

const NOW_MS = 1_800_000_000_000;
const NOW_S = NOW_MS / 1000;

/** An IO over buffers with a given terminal width; `text()` is stdout. */
type TestOptions = OutputOptions & { io: ReturnType<typeof memoryIO> };
function tableOptions(tty: boolean, extra: Partial<OutputOptions> & { width?: number } = {}): TestOptions {
  const { width, ...rest } = extra;
  return { io: memoryIO(tty, width), format: 'table', header: true, color: false, tty, now: () => NOW_MS, timeZone: 'UTC', ...rest } as TestOptions;
}

const ESC = /\x1b/;
const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

const devices: Rec[] = [
  {
    did: 1, name: 'Truck 7 with a rather long descriptive name that will not fit', isActive: 1,
    lastGPSTimestamp: NOW_S - 300, groupMember: [3, 4], battery: 80,
  },
  { did: 22, name: 'Van\tblue\nsecond line', isActive: 0, lastGPSTimestamp: null, groupMember: [], battery: 9 },
  { did: 333, name: '配送トラック 東京 🚚 evil\x1b]52;c;aGk=\x07\x1b[2J', isActive: 1, lastGPSTimestamp: NOW_S + 4 * 3600, groupMember: [7] },
];
const columns: Column[] = [
  { key: 'did', header: 'DID', kind: 'number' },
  { key: 'name', shrink: true },
  { key: 'isActive', header: 'ACTIVE', kind: 'bool', tone: (rec) => (rec.isActive === 1 ? undefined : 'bad') },
  { key: 'battery', kind: 'number', tone: (rec) => (typeof rec.battery === 'number' && rec.battery < 20 ? 'warn' : undefined) },
  { key: 'lastGPSTimestamp', kind: 'age' },
  { key: 'groupMember', header: 'GROUPS', kind: 'list' },
];

test('piped table is TSV: header, tabs, no escapes, RFC 3339 times, nothing truncated', async () => {
  const opts = tableOptions(false);
  await renderList(devices, columns, opts);
  const lines = opts.io.text().trimEnd().split('\n');
  assert.equal(lines.length, 4, 'header + 3 rows, embedded newlines flattened');
  assert.equal(lines[0], 'DID\tNAME\tACTIVE\tBATTERY\tLAST GPS TIMESTAMP\tGROUPS');
  assert.doesNotMatch(opts.io.text(), ESC);
  assert.deepEqual(lines[1]?.split('\t'), [
    '1', 'Truck 7 with a rather long descriptive name that will not fit', '1', '80', '2027-01-15T07:55:00Z', '3,4',
  ]);
  assert.deepEqual(lines[2]?.split('\t'), ['22', 'Van blue second line', '0', '9', '', '']);
  assert.equal(lines[3]?.split('\t')[1], '配送トラック 東京 🚚 evil');
});

test('--no-header drops the TSV header row', async () => {
  const opts = tableOptions(false, { header: false });
  await renderList(devices, columns, opts);
  assert.match(opts.io.text(), /^1\t/);
});

test('terminal table fits a narrow terminal, shortening with …', async () => {
  for (const width of [40, 60, 24]) {
    const opts = tableOptions(true, { width });
    await renderList(devices, columns, opts);
    const lines = opts.io.text().trimEnd().split('\n');
    assert.equal(lines.length, 4);
    for (const line of lines) assert.ok(displayWidth(line) <= width, `${JSON.stringify(line)} fits in ${width}`);
    assert.match(opts.io.text(), /…/);
    assert.doesNotMatch(opts.io.text(), ESC, 'no colour when color is false');
  }
});

test('terminal table on a wide terminal: relative times, yes/no, lists, no borders', async () => {
  const opts = tableOptions(true, { width: 200 });
  await renderList(devices, columns, opts);
  const [header, first, second, third] = opts.io.text().split('\n');
  assert.match(header ?? '', /^DID {2}NAME +ACTIVE {2}BATTERY {2}LAST GPS TIMESTAMP {2}GROUPS$/);
  assert.match(first ?? '', /^ {2}1 {2}Truck 7 .* fit +yes +80 {2}5 min ago +3, 4$/);
  assert.match(second ?? '', /Van blue second line +no +9 {2}never$/);
  assert.match(third ?? '', /in 4 h/);
  assert.doesNotMatch(opts.io.text(), /[│|─┌]/);
});

test('colour appears only when color is true: bold headers and tones', async () => {
  const opts = tableOptions(true, { width: 200, color: true });
  await renderList(devices, columns, opts);
  const text = opts.io.text();
  assert.match(text, /\x1b\[1mDID\x1b\[22m/);
  assert.match(text, /\x1b\[31mno\x1b\[39m/, 'inactive is red');
  assert.match(text, /\x1b\[33m9\x1b\[39m/, 'low battery is yellow');
  assert.doesNotMatch(text, /\x1b\]|\x1b\[2J/, 'service escape sequences are gone');
  for (const line of text.trimEnd().split('\n')) assert.ok(displayWidth(stripAnsi(line)) <= 200);
});

test('control sequences in service text never reach the terminal', async () => {
  const opts = tableOptions(true, { width: 200 });
  await renderList([{ did: 1, name: 'a\x1b[31mred\x1b[0m\x9b2J\x07b\rc' }], columns.slice(0, 2), opts);
  assert.match(opts.io.text(), /aredbc\n$/);
  assert.doesNotMatch(opts.io.text(), /[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
});

test('an empty list on a terminal prints nothing; piped it prints the header', async () => {
  const terminal = tableOptions(true);
  await renderList([], columns, terminal);
  assert.equal(terminal.io.text(), '');
  const piped = tableOptions(false);
  await renderList([], columns, piped);
  assert.equal(piped.io.text().split('\n')[0], 'DID\tNAME\tACTIVE\tBATTERY\tLAST GPS TIMESTAMP\tGROUPS');
});

test('--fields selects and orders table columns; unknown columns are plain text', async () => {
  const opts = tableOptions(false, { fields: ['name', 'did', 'groupMember'] });
  await renderList([...devices, { did: 4, name: 'x', extra: 'e' }], columns, opts);
  const lines = opts.io.text().split('\n');
  assert.equal(lines[0], 'NAME\tDID\tGROUPS');
  const withExtra = tableOptions(false, { fields: ['extra'] });
  await renderList([{ did: 4, extra: 'e' }], columns, withExtra);
  assert.equal(withExtra.io.text(), 'EXTRA\ne\n');
});

test('a record on a terminal is a KEY: value listing, columns first then other scalar fields', async () => {
  const opts = tableOptions(true);
  const record: Rec = { ...devices[0], simPhone: '+15550100', position: { lat: 1, lng: 2 } };
  await renderRecord(record, columns, opts);
  const lines = opts.io.text().trimEnd().split('\n');
  assert.equal(lines[0], 'DID:                 1');
  // The terminal is 80 cells wide: the long name goes on under its start.
  assert.match(lines[1] ?? '', /^NAME: +Truck 7 with a rather long descriptive name that will not$/);
  assert.equal(lines[2], `${' '.repeat(21)}fit`);
  assert.ok(lines.every((l) => l.length <= 80));
  assert.match(lines[3] ?? '', /^ACTIVE: +yes$/);
  assert.match(lines[5] ?? '', /^LAST GPS TIMESTAMP: {2}5 min ago$/);
  assert.match(lines[7] ?? '', /^SIM PHONE: +\+15550100$/);
  assert.equal(lines.length, 8, 'objects (position) are left to -o json');
});

test('a record piped is the same TSV as a one-row list', async () => {
  const opts = tableOptions(false, { fields: ['did', 'name'] });
  await renderRecord({ did: 9, name: 'n' }, columns, opts);
  assert.equal(opts.io.text(), 'DID\tNAME\n9\tn\n');
});

test('fitWidths: natural widths when they fit; shrinkable columns cut first, never below their minimum', () => {
  const col = (natural: number, min = natural, priority = 0) => ({ natural, min, priority });
  assert.deepEqual(fitWidths([col(4), col(20, 10), col(15)], 80), [4, 20, 15]);
  // 4 + 2 + 16 + 2 + 15 = 39: only the shrinkable column gives way.
  assert.deepEqual(fitWidths([col(4), col(20, 10), col(15)], 39), [4, 16, 15]);
  // The widest shrinkable column is cut first, towards the next widest.
  assert.deepEqual(fitWidths([col(30, 10), col(20, 10)], 44), [22, 20]);
  assert.deepEqual(fitWidths([col(30, 10), col(20, 10)], 36), [17, 17]);
});

test('fitWidths: leaves out the lowest-priority columns (rightmost first among equals) instead of cutting ids', () => {
  const col = (natural: number, priority: number, min = natural) => ({ natural, min, priority });
  // id, name (shrinkable), tracker id, groups (low), battery
  const columns = [col(4, 3), col(40, 2, 10), col(15, 2), col(8, -1), col(7, 0)];
  // At 60 the minimums fit, but the optional groups column (priority < 0) gives way rather than see the name cut further.
  assert.deepEqual(fitWidths(columns, 60), [4, 28, 15, 0, 7]);
  // Columns of priority 0 and up stay as long as the minimums fit.
  assert.deepEqual(fitWidths(columns.map((c) => ({ ...c, priority: Math.max(0, c.priority) })), 60), [4, 18, 15, 8, 7]);
  assert.deepEqual(fitWidths(columns, 45), [4, 13, 15, 0, 7]);
  assert.deepEqual(fitWidths(columns, 33), [4, 10, 15, 0, 0]);
  assert.deepEqual(fitWidths(columns, 20), [4, 14, 0, 0, 0]);
  // Equal priorities: the rightmost goes first.
  assert.deepEqual(fitWidths([col(5, 0), col(5, 0), col(5, 0)], 12), [5, 5, 0]);
  // A single column wider than the terminal is the one case cut below its minimum.
  assert.deepEqual(fitWidths([col(50, 0), col(5, -1)], 20), [20, 0]);
});

test('a 60-column terminal table keeps ids, numbers, times and headers whole and drops low-priority columns', async () => {
  const fleet: Rec[] = Array.from({ length: 5 }, (_, i) => ({
    did: 2004 + i, name: `Ford Transit with a long name ${i}`, trackerID: `35749441421403${i}`, deviceType: 'GV500MAP',
    isActive: 1, lastBatteryLevel: 83, lastGPSTimestamp: NOW_S - 960, groupMember: [101, 103],
  }));
  const fleetColumns: Column[] = [
    { key: 'did', header: 'DID', kind: 'number', priority: 3 },
    { key: 'name', header: 'NAME', shrink: true, priority: 2 },
    { key: 'trackerID', header: 'TRACKER ID', priority: 2 },
    { key: 'deviceType', header: 'TYPE', shrink: true, priority: -1 },
    { key: 'isActive', header: 'ACTIVE', kind: 'bool', priority: 1 },
    { key: 'lastBatteryLevel', header: 'BATTERY', kind: 'number' },
    { key: 'lastGPSTimestamp', header: 'LAST REPORT', kind: 'age', priority: 1 },
    { key: 'groupMember', header: 'GROUPS', kind: 'list', priority: -2 },
  ];
  const opts = tableOptions(true, { width: 60 });
  await renderList(fleet, fleetColumns, opts);
  const lines = opts.io.text().trimEnd().split('\n');
  for (const line of lines) assert.ok(displayWidth(line) <= 60, `${JSON.stringify(line)} fits in 60`);
  assert.match(lines[0] ?? '', /^ DID {2}NAME +TRACKER ID {7}ACTIVE {2}LAST REPORT$/, 'whole headers; GROUPS, TYPE, BATTERY left out');
  assert.match(lines[1] ?? '', /^2004 {2}Ford Transit wi… {2}357494414214030 {2}yes {5}16 min ago$/);

  // Wide enough: every column whole, nothing marked.
  const wide = tableOptions(true, { width: 120 });
  await renderList(fleet, fleetColumns, wide);
  assert.doesNotMatch(wide.io.text(), /…/);
  assert.match(wide.io.text().split('\n')[0] ?? '', /TYPE .* BATTERY .* GROUPS$/);

  // Piped output is unchanged: every column, full values.
  const piped = tableOptions(false, { width: 60 });
  await renderList(fleet, fleetColumns, piped);
  assert.equal(piped.io.text().split('\n')[0], 'DID\tNAME\tTRACKER ID\tTYPE\tACTIVE\tBATTERY\tLAST REPORT\tGROUPS');
  assert.match(piped.io.text(), /Ford Transit with a long name 0\t357494414214030\tGV500MAP\t1\t83\t/);
});
