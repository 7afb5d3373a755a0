/** The watch view's layout (pure): attention order, width fitting, sanitised service text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Painter } from '../../src/io/formats/render/paint.js';
import { displayWidth } from '../../src/io/formats/render/width.js';
import { initialState } from '../../src/reports/watch-start.js';
import { DEFAULT_WATCH_PARAMS, type UnitWatchState } from '../../src/reports/watch-state.js';
import { attentionOrder, viewLines } from '../../src/commands/watch/view.js';

const plain: Painter = { header: (t) => t, tone: (_tone, t) => t };
const T = 1_800_000_000;
const P = { ...DEFAULT_WATCH_PARAMS, fences: [] };

function unit(did: number, name: string, patch: Partial<UnitWatchState> = {}): UnitWatchState {
  const { state } = initialState({ did, name, lastReport: T - 120, battery: 80, lat: 33.7, lng: -84.3, address: `${did} Main St, Atlanta, GA` }, P);
  return { ...state, motion: 'stopped', speed: 0, ...patch };
}

const fleet = [
  unit(1, 'Parked van'),
  unit(2, 'Driving van', { motion: 'moving', speed: 64 }),
  // stale while its last reports said moving: the view counts it as its row shows it, stale
  unit(3, 'Silent trailer', { stale: true, lastReport: T - 3 * 86400, motion: 'moving', speed: 20 }),
  unit(4, 'Tired bike', { batteryLow: true, battery: 9, motion: 'moving' }),
  unit(5, 'Crashed truck', { alert: { event: 'crash', time: T - 60 }, motion: 'stopped' }),
  unit(6, 'Old alarm', { alert: { event: 'sos', time: T - 5 * 3600 } }),
  unit(7, 'New unit', { motion: null, speed: null, lastReport: null, battery: null, address: null, lat: null, lng: null }),
];

test('what needs attention comes first: a recent sos/crash, stale, low battery, moving, stopped, unknown', () => {
  assert.deepEqual(attentionOrder(fleet, T).map((s) => s.did), [5, 3, 4, 2, 6, 1, 7]);
});

test('the view: a title with counts, a header, one row a unit, the status line at the bottom', () => {
  const lines = viewLines({ states: fleet, now: T, width: 120, height: 14, title: 'trackctl watch: every unit', status: 'Ctrl-C to quit' }, plain);
  assert.equal(lines.length, 14);
  assert.equal(lines[0], 'trackctl watch: every unit · 7 units · 1 alert · 1 stale · 1 low battery · 2 moving');
  assert.match(lines[2] ?? '', /^UNIT {2}NAME +STATE +LAST REPORT +SPEED +BATTERY +PLACE$/);
  const rows = lines.slice(3, 10);
  assert.match(rows[0] ?? '', /^ {3}5 {2}Crashed truck +CRASH +2 min ago +0 +80% {2}5 Main St, Atlanta, GA$/);
  assert.match(rows[1] ?? '', /^ {3}3 {2}Silent trailer +stale +3 d ago/);
  assert.match(rows[2] ?? '', /Tired bike +moving .* 9%/);
  assert.match(rows[6] ?? '', /^ {3}7 {2}New unit +— +never/);
  assert.equal(lines[13], 'Ctrl-C to quit');
  for (const l of lines) assert.ok(displayWidth(l) <= 120);
});

test('every width from 30 to 140 columns: no line is wider, unit and state always shown, the place first to go', () => {
  for (let width = 30; width <= 140; width++) {
    const lines = viewLines({ states: fleet, now: T, width, height: 12, title: 'trackctl watch: group 101', status: 'warning: a long message that does not fit on a narrow terminal at all' }, plain);
    for (const l of lines) assert.ok(displayWidth(l) <= width, `${width}: "${l}"`);
    const header = lines[2] ?? '';
    assert.match(header, /UNIT +NAME +STATE/, `${width}`);
    if (width >= 100) assert.match(header, /PLACE/, `${width}`);
  }
  const narrow = viewLines({ states: fleet, now: T, width: 40, height: 12, title: 't', status: '' }, plain);
  assert.doesNotMatch(narrow[2] ?? '', /PLACE/);
});

test('more units than rows: the most urgent are shown and the rest counted', () => {
  const lines = viewLines({ states: fleet, now: T, width: 100, height: 8, title: 't', status: 's' }, plain);
  assert.equal(lines.length, 8);
  assert.deepEqual(lines.slice(3, 6).map((l) => l.trim().split(/\s+/)[0]), ['5', '3', '4']);
  assert.equal(lines[6], '… and 4 more');
});

test('names and places from the service cannot drive the terminal', () => {
  const evil = unit(9, 'Van\x1b]52;c;aGk=\x07 9\x1b[2J', { address: '1 Main\r\nSt\x9b31m' });
  const lines = viewLines({ states: [evil], now: T, width: 100, height: 6, title: 't', status: 'x\x1b[31m' }, plain);
  for (const l of lines) assert.doesNotMatch(l, /[\x00-\x1f\x7f-\x9f]/, JSON.stringify(l));
  assert.match(lines[3] ?? '', /Van 9/);
});

