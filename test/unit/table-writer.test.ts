/**
 * Display widths (string-width) and terminal table lines (cli-table3 behind the fitting
 * layer): wide and zero-width text is measured by grapheme, cut without splitting a
 * cluster, and every column starts at the same terminal cell on every line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutTable, loadTableWriter, type TtyCell } from '../../src/io/formats/render/table.js';
import { displayWidth, truncateToWidth, wrapToWidth } from '../../src/io/formats/render/width.js';
import { formatRecordView } from '../../src/io/formats/render/record-view.js';
import { loadPainter } from '../../src/io/formats/render/paint.js';
import type { Column } from '../../src/io/formats/render/types.js';

test('displayWidth: CJK and emoji take two cells, combining marks none', () => {
  const cases: Array<[string, number]> = [
    ['Van 7', 5], ['中文', 4], ['ｶﾀｶﾅ', 4], ['e\u0301', 1], ['👍', 2], ['👍🏽', 2], ['👨‍👩‍👧', 2], ['🇩🇪', 2],
    ['❤️', 2], ['1️⃣', 2], ['\u1100\u1161\u11a8', 2], ['Zürich 北京 🚚', 14], ['', 0],
  ];
  for (const [text, width] of cases) assert.equal(displayWidth(text), width, JSON.stringify(text));
});

test('wrapToWidth: lines of at most the width, broken after spaces, within a word wider than a line; nothing lost', () => {
  const text = '101, 102, 103, 2004, 2005, 2006, 2007, 2008, 2009, 2010, 2011 北京北京北京 averyveryverylongwordwithoutspaces';
  for (const width of [5, 12, 30, 200]) {
    const lines = wrapToWidth(text, width);
    assert.ok(lines.every((l) => displayWidth(l) <= width), `${width}: ${JSON.stringify(lines)}`);
    assert.equal(lines.join('').replace(/ /g, ''), text.replace(/ /g, ''), `${width}: every character kept`);
  }
  assert.deepEqual(wrapToWidth('a b c', 3), ['a b', 'c']);
  assert.deepEqual(wrapToWidth('short', 10), ['short']);
});

test('a record view fits the terminal: a long value goes on under its start', async () => {
  const painter = await loadPainter(false);
  const rec = { gid: 101, name: 'North depot', groupMembers: Array.from({ length: 40 }, (_, i) => 2000 + i) };
  const columns: Column[] = [{ key: 'gid' }, { key: 'name' }, { key: 'groupMembers', header: 'MEMBERS', kind: 'list' }];
  const text = formatRecordView(rec, columns, painter, 0, 'UTC', 60);
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.every((l) => displayWidth(l) <= 60), text);
  assert.ok(lines.length > 3, 'the members take several lines');
  assert.match(lines[2] ?? '', /^MEMBERS:  2000, 2001/);
  assert.ok(lines.slice(3).every((l) => l.startsWith(' '.repeat(10))), 'continued under the value');
  assert.equal(lines.slice(2).map((l) => l.replace(/^MEMBERS:/, '').trim()).join(' '), rec.groupMembers.join(', '));
});

test('truncateToWidth: cut by cluster, never through one, ending in …', () => {
  assert.equal(truncateToWidth('北京北京', 5), '北京…');
  assert.equal(truncateToWidth('👨‍👩‍👧👨‍👩‍👧x', 4), '👨‍👩‍👧…');
  assert.equal(truncateToWidth('Cafe\u0301 au lait', 5), 'Cafe\u0301…');
  assert.equal(truncateToWidth('short', 10), 'short');
  assert.equal(truncateToWidth('abc', 1), '…');
});

/** Terminal cell at which each column starts, from a line and the column texts in it. */
function starts(line: string, texts: string[]): number[] {
  let from = 0;
  return texts.map((text) => {
    const at = line.indexOf(text, from);
    assert.ok(at >= 0, `${JSON.stringify(text)} in ${JSON.stringify(line)}`);
    from = at + text.length;
    return displayWidth(line.slice(0, at));
  });
}

test('table lines: borderless, two spaces apart, aligned by display width, numbers to the right', async () => {
  const columns: Column[] = [
    { key: 'id', header: 'ID', kind: 'number' },
    { key: 'name', header: 'NAME', shrink: true },
    { key: 'type', header: 'TYPE' },
  ];
  const data = [
    ['7', 'Van 👨‍👩‍👧 北京', 'TT8850'],
    ['2004', '\u1100\u1161\u11a8 truck', 'GL300'],
    ['12', 'Plain', 'FMB920'],
  ];
  const rows: TtyCell[][] = data.map((cells) => cells.map((text) => ({ text })));
  const [writer, painter] = await Promise.all([loadTableWriter(), loadPainter(false)]);
  const layout = layoutTable(columns, rows, 80, true);
  const text = writer.header(layout, painter) + writer.rows(rows, layout, painter);
  const lines = text.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 4);
  assert.equal(lines[0], '  ID  NAME         TYPE', 'a number column is right-aligned, its header too');
  const typeStarts = lines.slice(1).map((line, i) => starts(line, [data[i]![2]!])[0]);
  assert.deepEqual(typeStarts, [19, 19, 19], text);
  assert.match(lines[1]!, /^ {3}7 {2}/, 'ids are right-aligned');
  for (const line of lines) assert.equal(line, line.trimEnd(), 'no trailing spaces');

  // Narrow: the name column is cut (by cluster, with …), nothing wraps or overflows.
  const narrow = layoutTable(columns, rows, 24, true);
  const cut = (writer.header(narrow, painter) + writer.rows(rows, narrow, painter)).split('\n').filter((line) => line !== '');
  for (const line of cut) assert.ok(displayWidth(line) <= 24, `${JSON.stringify(line)} fits in 24`);
  assert.ok(cut.some((line) => line.includes('…')));
  assert.deepEqual(new Set(cut.slice(1).map((line, i) => starts(line, [data[i]![2]!])[0])).size, 1, cut.join('\n'));
});
