/**
 * The history page's size budget: 1,000,000 reports make a page of at most 40 MB, with at most
 * EVENT_MARKER_BUDGET sos and crash markers however many there are (the drawing time for such a
 * page is measured by bench/map.mjs). The reports are made up as the sandbox makes them: a
 * moving unit, a report every 10 s, 1.3% of them sos or crash, addresses from a street list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportFeature } from '../../src/api/types.js';
import { EVENT_MARKER_BUDGET, HistoryCollector } from '../../src/io/pages/map/history.js';
import { renderPage } from '../../src/io/pages/map/page.js';

test('a 1,000,000-report history page stays within 40 MB and draws at most the marker cap', { timeout: 300_000 }, () => {
  const n = 1_000_000;
  const collector = new HistoryCollector();
  let seed = 11;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let lat = 33.75;
  let lng = -84.39;
  let events = 0;
  for (let i = 0; i < n; i++) {
    lat += (rand() - 0.5) * 0.0004;
    lng += (rand() - 0.5) * 0.0004;
    const r = rand();
    const reportType = r < 0.007 ? 'crash' : r < 0.013 ? 'sos' : 'report';
    if (reportType !== 'report') events++;
    const feature = {
      type: 'Feature',
      properties: {
        did: 9000, name: 'Bench unit', lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6, speed: Math.round(rand() * 900) / 10,
        address: `${Math.floor(rand() * 900) + 1} ${['Maple Ave', 'Industrial Pkwy', 'Warehouse Way', 'Cedar Ct', 'Airport Blvd'][i % 5]}, Atlanta, GA`,
        date: 1_795_000_000 + i * 10, reportType,
      },
      geometry: { type: 'Point', coordinates: [lng, lat] },
    } as unknown as ReportFeature;
    collector.add(feature);
  }
  assert.ok(events > 10_000, `as many events as the issue's page had: ${events}`);
  const data = collector.page('UTC');
  assert.equal(data.tracks.reduce((k, t) => k + t.marks.length, 0), EVENT_MARKER_BUDGET);
  assert.equal(data.notes.length, 1);
  let bytes = 0;
  for (const piece of renderPage(data)) bytes += Buffer.byteLength(piece);
  assert.ok(bytes <= 40e6, `at most 40 MB: ${(bytes / 1e6).toFixed(1)} MB`);
  assert.ok(bytes >= 10e6, `every report is in the page: ${(bytes / 1e6).toFixed(1)} MB`);
});
