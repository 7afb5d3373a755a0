/**
 * A poll's report keys (runs/cursor.ts): the same key whichever way a report was read (the point
 * reader's values, read with the bytes, or the report parsed whole), and the key checkpoints
 * written before keep, so a poll never prints a report of the last reply again, nor misses one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureSplitter, Report } from '../../src/api/history.js';
import { ReadPoint } from '../../src/api/report-item.js';
import { PointReader } from '../../src/api/report-point.js';
import { Poll } from '../../src/runs/cursor.js';
import { parsedItem } from '../helpers/report-points.js';

const report = (date: number, message: string | undefined, more = ''): string =>
  `{"type":"Feature","properties":{"aid":1,"did":4001,"name":"Van 1","lat":33.7485,"lng":-84.3871,"speed":0,"date":${date},` +
  `"reportType":"report","reportValue":"periodic"${message === undefined ? '' : `,"message":${message}`}${more}},` +
  `"geometry":{"type":"Point","coordinates":[-84.3871,33.7485]}}`;

/** Reports as a service writes them, and the unusual: a message that is an object, null, escaped or absent, numeric strings where numbers go. */
const REPORTS = [
  report(1795000000, '"Periodic position report"'),
  report(1795000060, '"Periodic position report"'),
  report(1795000120, '{"code":7,"text":"Door \\"A\\""}'),
  report(1795000180, 'null'),
  report(1795000240, undefined),
  report(1795000300, '"Caf\\u00e9 stop 日本"'),
  report(1795000360, '"Periodic position report"').replace('"lat":33.7485', '"lat":"33.7485"').replace('"date":1795000360', '"date":" 1795000360 "'),
];

/** The reports cut from a reply as a poll reads it: by the point reader, in the check's place. */
function cutByPointReader(reports: readonly string[]): Report[] {
  const splitter = new FeatureSplitter(200, new PointReader());
  const cut = splitter.cut(Buffer.from(`{"features":[${reports.join(',')}],"success":"ok"}`, 'utf8'));
  splitter.end();
  return cut;
}

test('poll keys: a report read by the point reader and the same report parsed whole have one key', () => {
  const cut = cutByPointReader(REPORTS);
  assert.equal(cut.length, REPORTS.length);
  assert.ok(cut.every((r) => r.read instanceof ReadPoint), 'the point reader read every report (no parse for its key)');
  const read = new Poll();
  assert.equal(read.fresh(cut, new Set()).length, REPORTS.length);
  // The next reply, its reports parsed whole (as a Parquet poll, or a report the reader gave up on): none is new.
  const parsed = new Poll();
  assert.deepEqual(parsed.fresh(REPORTS.map(parsedItem), read.keys), []);
  assert.deepEqual([...parsed.keys], [...read.keys]);
  assert.equal(read.newest, 1795000360, 'the newest date, a numeric string read as its number');
});

test('poll keys: the message is part of a report\'s identity, and the key is the one checkpoints kept before', () => {
  const first = new Poll();
  first.fresh(cutByPointReader(REPORTS), new Set());
  // The same unit, date and place with another message is another report: printed.
  const other = cutByPointReader([report(1795000000, '"Ignition on"')]);
  assert.equal(new Poll().fresh(other, first.keys).length, 1);
  // Keys of checkpoints written by earlier builds (sha1 of [did, date, type, value, lat, lng, message]): still recognised.
  assert.deepEqual([...first.keys].slice(0, 2), ['IValFs602N5Tctd7', 'CS6v_cs_PqitEJjh']);
});
