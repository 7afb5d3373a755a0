import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { parse as parseCsv } from 'csv-parse/sync';
import type { HistoryItem } from '../../src/api/history.js';
import type { ReportFeature } from '../../src/api/types.js';
import { openHistorySink, featureLine, type HistoryFormat } from '../../src/io/pages/geo/sink.js';
import type { OutputOptions } from '../../src/io/formats/output.js';
import { CSV_COLUMNS, flatReport, TABLE_COLUMNS } from '../../src/commands/history/columns.js';
import { needTool } from '../helpers/tools.js';
import { memoryIO } from '../helpers/io.js';

function feature(i: number, extra: Partial<ReportFeature['properties']> = {}): ReportFeature {
  const lat = 39.7 + i / 1000;
  const lng = -104.9 - i / 1000;
  return {
    type: 'Feature',
    properties: {
      aid: 1, did: 7, name: 'Van <7> & "friends"', availability: 'available', lat, lng, alt: 1600 + i, speed: 40, heading: 90,
      source: 'gps', address: `${i} Main St, Denver`, date: 1_795_000_000 + 600 * i, battery: 80, odometer: null, precision: 5,
      satellites: 9, temperature: null, reportType: 'report', reportValue: 'periodic', message: 'Periodic position report', ...extra,
    },
    geometry: { type: 'Point', coordinates: [lng, lat] },
  };
}

const nasty: ReportFeature[] = [
  feature(0),
  feature(1, { message: 'ESC \u001b[2J and OSC \u001b]52;c;aGk=\u0007 done; C1 \u009b31m; NUL \u0000; BOM \ufeff; lone \ud800 surrogate', reportType: 'sos' }),
  feature(2, { address: null, message: "=cmd|' /C calc'!A0", reportType: 'note' }),
  feature(3, { name: ']]> <![CDATA[ x', message: 'multi\nline\r\ntext' }),
  { ...feature(4, { lat: 999 }), geometry: { type: 'Point', coordinates: [Number.NaN, 999] as unknown as [number, number] } },
];
const items = (list: ReportFeature[]): HistoryItem[] => list.map((f) => ({ text: JSON.stringify(f), feature: f, verbatim: false }));

async function render(format: HistoryFormat, list: ReportFeature[], batches = 2, fields?: string[]): Promise<string> {
  const io = memoryIO();
  const out: OutputOptions = { io, format: 'table', header: true, color: false, tty: false, now: () => 1_800_000_000_000, timeZone: 'UTC', ...(fields ? { fields } : {}) };
  const sink = openHistorySink({ format, out, title: 'Unit 7', columns: format === 'csv' ? CSV_COLUMNS : TABLE_COLUMNS, flat: flatReport });
  const all = items(list);
  const size = Math.ceil(all.length / batches) || 1;
  for (let i = 0; i < all.length; i += size) await sink.write(all.slice(i, i + size));
  await sink.end();
  assert.equal(sink.count, list.length);
  return io.text();
}

function xmllint(t: TestContext, xml: string): void {
  if (!needTool(t, 'xmllint')) return;
  const r = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  assert.equal(r.status, 0, `xmllint: ${r.stderr}\n${xml.slice(0, 2000)}`);
}

/** A tiny check that holds without xmllint: no raw control characters, balanced tags. */
function tagsBalance(xml: string): void {
  assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w:]*)[^>]*?(\/?)>/g)) {
    if (m[3] === '/') continue;
    if (m[1] === '/') assert.equal(stack.pop(), m[2]);
    else stack.push(m[2] as string);
  }
  assert.deepEqual(stack, []);
}

test('gpx: well-formed GPX 1.1, one track, a point per located report', async (t) => {
  const xml = await render('gpx', nasty);
  tagsBalance(xml);
  assert.match(xml, /<gpx version="1.1" creator="trackctl" xmlns="http:\/\/www.topografix.com\/GPX\/1\/1">/);
  assert.match(xml, /<trk><name>Van &lt;7&gt; &amp; &quot;friends&quot;<\/name><trkseg>/);
  assert.equal(xml.match(/<trkpt /g)?.length, 4, 'the report without a valid position is left out');
  assert.match(xml, /<trkpt lat="39.7" lon="-104.9"><ele>1600<\/ele><time>2026-11-18T/);
  assert.doesNotMatch(xml, /\u001b|\u009b/);
  xmllint(t, xml);
});

test('kml: well-formed KML 2.2, placemarks then the track', async (t) => {
  const xml = await render('kml', nasty, 3);
  tagsBalance(xml);
  assert.match(xml, /<kml xmlns="http:\/\/www.opengis.net\/kml\/2.2">/);
  assert.equal(xml.match(/<Placemark>/g)?.length, 5, '4 reports + the track');
  assert.match(xml, /<LineString><tessellate>1<\/tessellate><coordinates>\n-104.9,39.7,1600 -104.90\d*,39.701,1601 /);
  assert.ok(xml.indexOf('<LineString>') > xml.lastIndexOf('<Point>'), 'the track comes last');
  xmllint(t, xml);
});

test('gpx and kml of an empty history are still documents', async (t) => {
  for (const format of ['gpx', 'kml'] as const) {
    const xml = await render(format, []);
    tagsBalance(xml);
    xmllint(t, xml);
    assert.match(xml, /Unit 7/);
  }
});

test('geojson: a FeatureCollection of the features as sent; json: the array', async () => {
  const geo = JSON.parse(await render('geojson', nasty)) as { type: string; features: unknown[] };
  assert.equal(geo.type, 'FeatureCollection');
  assert.equal(geo.features.length, nasty.length);
  assert.deepEqual(JSON.parse(await render('geojson', [])), { type: 'FeatureCollection', features: [] });
  const json = await render('json', nasty);
  assert.equal((JSON.parse(json) as unknown[]).length, nasty.length);
  assert.deepEqual(JSON.parse(await render('json', [])), []);
  assert.doesNotMatch(json, /[\u007f-\u009f\u001b]/, 'controls stay escaped');
});

test('ndjson: one feature a line; service text reused only when safe', async () => {
  const text = await render('ndjson', nasty);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, nasty.length);
  lines.forEach((line, i) => assert.deepEqual(JSON.parse(line), JSON.parse(JSON.stringify(nasty[i]))));
  assert.doesNotMatch(text, /[\u007f-\u009f]/);
  const f = feature(1, { message: 'C1 \u0085' });
  assert.equal(featureLine({ text: JSON.stringify(f), feature: f, verbatim: false }), JSON.stringify(f).replace('\u0085', '\\u0085'));
  const pretty = JSON.stringify(f, null, 1);
  assert.equal(featureLine({ text: pretty, feature: f, verbatim: false }).includes('\n'), false);
  assert.equal(featureLine({ text: 'as sent', feature: f, verbatim: true }), 'as sent');
});

test('ndjson with --fields prints flat records of those properties', async () => {
  const text = await render('ndjson', nasty.slice(0, 2), 1, ['date', 'lat', 'reportType']);
  assert.deepEqual(JSON.parse(text.split('\n')[0] as string), { date: 1_795_000_000, lat: 39.7, reportType: 'report' });
});

test('csv: a row per report, date as unix seconds, formulas neutralised', async () => {
  const text = await render('csv', nasty);
  const rows = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
  assert.equal(rows.length, nasty.length);
  assert.equal(rows[0]?.date, '1795000000');
  assert.equal(rows[2]?.message, "'=cmd|' /C calc'!A0");
  assert.equal(rows[3]?.message, 'multi\nline\ntext', 'CR is a control character: dropped by the shared sanitiser');
  assert.doesNotMatch(text, /\u001b/);
});

test('table (piped): TSV with RFC 3339 dates', async () => {
  const text = await render('table', nasty.slice(0, 2));
  const [header, first] = text.split('\n');
  assert.equal(header, 'DATE\tTYPE\tLAT\tLNG\tSPEED\tBATTERY\tADDRESS\tMESSAGE');
  assert.match(first as string, /^2026-11-18T\d\d:\d\d:\d\dZ\treport\t39.7\t-104.9\t/);
});
