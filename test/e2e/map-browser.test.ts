/**
 * The map pages in a real browser (headless Chromium, the network blocked): each kind of
 * page draws its features with no console errors, popups show the exact report, text from
 * the service stays text, units stay readable where they crowd, and a 100,000-point history
 * still opens. Screenshots land in test-output/ (map-history.png, map-units.png, map-trips.png, …).
 * The stops page and the cap on event markers: map-browser-reports.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ReportFeature } from '../../src/api/types.js';
import { buildTripsPage, type StopRecord, type TripRecord } from '../../src/io/pages/map/trips.js';
import { buildUnitsPage, type UnitRecord } from '../../src/io/pages/map/units.js';
import { openMap } from '../helpers/browser.js';
import { assertClean, historyPage, withBrowser } from '../helpers/map-pages.js';

/** A frozen sandbox clock and absolute windows: runs compared with each other see the same reports. */
const T0 = Math.floor(Date.now() / 1000);
const HOUR = 3600;
const DAY = 24 * HOUR;
const ago = (seconds: number): string => String(T0 - seconds);

const parseNdjson = (text: string): ReportFeature[] => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as ReportFeature);

/** Labels shown never overlap each other, markers neither, and all stay inside the map, clear of the legend; a hidden label shows on hover. */
async function assertUnitsReadable(page: Page, units: number): Promise<void> {
  type Box = { l: number; t: number; r: number; b: number };
  // Page code as text: the tests are type-checked without the DOM's types.
  const geometry = (await page.evaluate(`(() => {
    const rect = (e) => { const x = e.getBoundingClientRect(); return { l: x.left, t: x.top, r: x.right, b: x.bottom }; };
    return {
      map: rect(document.getElementById('map')),
      legend: rect(document.querySelector('.trk-legend')),
      labels: [...document.querySelectorAll('.leaflet-tooltip.trk-label:not(.trk-label-hover)')].map(rect),
      markers: [...document.querySelectorAll('path.trk-unit')].map(rect),
    };
  })()`)) as { map: Box; legend: Box; labels: Box[]; markers: Box[] };
  const overlap = (a: Box, b: Box, slack = 0): boolean => a.l < b.r - slack && b.l < a.r - slack && a.t < b.b - slack && b.t < a.b - slack;
  const inside = (a: Box, m: Box): boolean => a.l >= m.l && a.r <= m.r && a.t >= m.t && a.b <= m.b;
  assert.equal(geometry.markers.length, units);
  assert.ok(geometry.labels.length >= Math.min(units, 5), `several labels are shown: ${geometry.labels.length}`);
  geometry.labels.forEach((a, i) => geometry.labels.slice(i + 1).forEach((b) => assert.ok(!overlap(a, b), `labels overlap: ${JSON.stringify([a, b])}`)));
  // A marker is a circle of radius 8 with a 2 px border: the boxes may touch at their corners.
  geometry.markers.forEach((a, i) => geometry.markers.slice(i + 1).forEach((b) => assert.ok(!overlap(a, b, 4), `markers overlap: ${JSON.stringify([a, b])}`)));
  for (const box of [...geometry.labels, ...geometry.markers]) {
    assert.ok(inside(box, geometry.map), `inside the map: ${JSON.stringify(box)}`);
    assert.ok(!overlap(box, geometry.legend), `clear of the legend: ${JSON.stringify(box)}`);
  }
  // A label left off shows while the pointer is on its marker.
  const hidden = await page.locator('.leaflet-tooltip.trk-label.trk-label-hover').count();
  if (hidden > 0) {
    const index = (await page.evaluate(`[...document.querySelectorAll('.leaflet-tooltip.trk-label')].findIndex((l) => l.classList.contains('trk-label-hover'))`)) as number;
    assert.ok(index >= 0);
    const before = await page.locator('.leaflet-tooltip.trk-label:not(.trk-label-hover)').count();
    await page.locator('path.trk-unit').nth(index).dispatchEvent('mouseover');
    assert.equal(await page.locator('.leaflet-tooltip.trk-label:not(.trk-label-hover)').count(), before + 1, 'hovered: its label shows');
    await page.locator('path.trk-unit').nth(index).dispatchEvent('mouseout');
  }
}

test('map pages open in Chromium with the network blocked', { timeout: 240_000 }, async (t) => {
  await withBrowser(t, async (browser, h, dir) => {
    await t.test('history of one unit, from the real binary (-o html)', async () => {
      const r = await h.run(['history', '2004', '--from', ago(2 * DAY), '-o', 'html']);
      assert.equal(r.code, 0, r.stderr);
      const reports = parseNdjson((await h.runIn(['history', '2004', '--from', ago(2 * DAY), '-o', 'ndjson'])).stdout);
      const file = join(dir, 'one.html');
      writeFileSync(file, r.stdout);
      const d = await openMap(browser, file, 'map-history-one-unit');
      assertClean(d);
      assert.equal(d.dom.tracks, 1);
      assert.equal(d.dom.points, reports.length, 'a dot per report (a short history is not thinned)');
      assert.equal(d.dom.sos, reports.filter((f) => f.properties.reportType === 'sos').length);
      assert.equal(d.dom.crash, reports.filter((f) => f.properties.reportType === 'crash').length);
      assert.ok(d.dom.sos + d.dom.crash > 0, 'the sandbox history has events to draw');
      assert.match(await d.page.locator('header h1').innerText(), /^History of Ford Transit 01$/);
      await d.page.close();
    });

    await t.test('history of two units in one stream (grouped by did): tracks, points, events, popups', async () => {
      // The real binary's merged stream of two units, as drawn and as ndjson.
      const r = await h.run(['history', '2004', '2005', '--from', ago(DAY), '-o', 'html']);
      assert.equal(r.code, 0, r.stderr);
      const merged = parseNdjson((await h.runIn(['history', '2004', '2005', '--from', ago(DAY), '-o', 'ndjson'])).stdout);
      assert.ok(merged.filter((f) => f.properties.did === 2004).length > 10 && merged.filter((f) => f.properties.did === 2005).length > 10);
      const file = join(dir, 'history.html');
      writeFileSync(file, r.stdout);
      const d = await openMap(browser, file, 'map-history');
      assertClean(d);
      assert.equal(d.dom.tracks, 2, 'one line per unit');
      assert.equal(d.dom.last, 2, 'and its last position');
      assert.equal(d.reported.tracks, 2);
      assert.equal(d.dom.points, merged.length);
      const events = (type: string) => merged.filter((f) => f.properties.reportType === type).length;
      assert.equal(d.dom.sos, events('sos'));
      assert.equal(d.dom.crash, events('crash'));
      assert.equal(d.dom.legendRows, 2 + 1 + (events('sos') > 0 ? 1 : 0) + (events('crash') > 0 ? 1 : 0), 'units, last position, events');
      const colors = await d.page.locator('path.trk-track').evaluateAll((ps) => ps.map((p) => p.getAttribute('stroke')));
      assert.equal(new Set(colors).size, 2, `a colour per unit: ${colors.join(', ')}`);
      assert.match(await d.page.locator('header h1').innerText(), /Ford Transit 01 and Ford Transit 02/);
      assert.match(await d.page.locator('header p').innerText(), /UTC · [\d,]+ reports/);

      // An sos marker's popup is that report, exactly.
      const sos = merged.find((f) => f.properties.reportType === 'sos');
      if (sos) {
        // By the keyboard, as a marker takes it (Enter on the focused marker): on some days the sos
        // lies under the same unit's crash marker, which would take a click at its place.
        await d.page.locator('.trk-marker-sos').first().press('Enter');
        const text = await d.page.locator('.leaflet-popup-content').innerText();
        assert.match(text, /Type\s+sos/);
        assert.match(text, /Speed\s+[\d.]+/);
        assert.match(text, /Time\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
        const sosReports = merged.filter((f) => f.properties.reportType === 'sos');
        const shown = (f: ReportFeature): boolean =>
          text.includes(`Position\t${f.properties.lat}, ${f.properties.lng}`) && text.includes(`Speed\t${f.properties.speed}\n`) && text.includes(String(f.properties.address));
        assert.ok(sosReports.some(shown), `the popup shows an sos report as sent: ${JSON.stringify(text)}`);
      }
      await d.page.close();
    });

    await t.test('units: last positions coloured by state', async () => {
      const r = await h.run(['units', '-o', 'html']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '', 'nothing on stderr when piped');
      const units = JSON.parse((await h.runIn(['units', '-o', 'json'])).stdout) as Array<Record<string, unknown>>;
      const placed = units.filter((u) => typeof u.did === 'number' && typeof u.lastValidLatitude === 'number' && !(u.lastValidLatitude === 0 && u.lastValidLongitude === 0));
      const file = join(dir, 'units.html');
      writeFileSync(file, r.stdout);
      const d = await openMap(browser, file, 'map-units');
      assertClean(d);
      assert.ok(placed.length >= 10);
      assert.equal(d.dom.units, placed.length, 'a marker per unit with a position');
      assert.equal(d.dom.moving + d.dom.stopped + d.dom.stale + d.dom.sensor, d.dom.units);
      assert.ok(d.dom.stale > 0 && d.dom.moving > 0, 'the demo fleet has moving and stale units');
      // Sensors stand still: drawn as sensors (or stale), never as moving or stopped vehicles.
      const sensors = placed.filter((u) => u.category === 'sensor');
      const nowS = Date.now() / 1000;
      const reporting = sensors.filter((u) => nowS - (u.lastGPSTimestamp as number) <= 86400).length;
      assert.ok(reporting > 0, 'the demo fleet has sensors that report');
      assert.equal(d.dom.sensor, reporting, 'each reporting sensor is drawn as a sensor');
      const data = JSON.parse(/<script type="application\/json" id="map-data">(.*?)<\/script>/s.exec(r.stdout)![1]!) as { units: Array<{ category: string; state: string }> };
      assert.deepEqual(data.units.filter((u) => u.category === 'sensor' && (u.state === 'moving' || u.state === 'stopped')), []);
      assert.equal(d.dom.legendRows, 4, 'moving, stopped, stale, sensor');
      assert.equal(d.dom.labels, placed.length, 'every unit has a label');
      await assertUnitsReadable(d.page, placed.length);
      // At night the fleet parks at its depots, markers on top of each other: click the stale one itself.
      await d.page.locator('path.trk-unit-stale').first().dispatchEvent('click');
      assert.match(await d.page.locator('.leaflet-popup-content').innerText(), /State\s+stale[\s\S]*Last report\s+\d{4}-/);
      await d.page.close();
    });

    await t.test('units at a moment when a label would fall under the legend: it shows on hover only', async () => {
      // The demo fleet as the sandbox placed it at 2026-11-26 03:55:08 UTC: Courier bike 12 stands
      // low on the map, its name drawn right of it where the legend is (a run at that hour failed).
      const at = 1_795_665_308;
      const fleet: Array<[number, string, number, number, number, string]> = [
        [2004, 'Ford Transit 01', 33.748539, -84.503573, 1795665026, 'device'], [2005, 'Ford Transit 02', 33.649654, -84.391975, 1795665237, 'device'],
        [2006, 'Sprinter 03', 33.748534, -84.503613, 1795662582, 'device'], [2007, 'Sprinter 04', 33.649673, -84.391978, 1795665038, 'device'],
        [2008, 'Box truck 05', 33.649632, -84.391966, 1795488597, 'device'], [2009, 'Box truck 06', 33.649661, -84.391983, 1795664245, 'device'],
        [2010, 'Reefer 07', 33.74852, -84.50361, 1795664773, 'device'], [2011, 'Pickup 08', 33.747425, -84.290703, 1795663365, 'device'],
        [2012, 'Forklift 09', 33.74855, -84.5036, 1795233000, 'device'], [2013, 'Trailer 10', 33.748526, -84.50357, 1795405870, 'device'],
        [2014, 'Service van 11', 33.74744, -84.290689, 1795664954, 'device'], [2015, 'Courier bike 12', 33.5336, -84.223508, 1795665088, 'device'],
        [2021, 'Maria Lopez', 33.765655, -84.487083, 1795664389, 'device'], [2023, 'James Carter', 33.672719, -84.286936, 1795664700, 'device'],
        [2025, 'Aisha Khan', 33.726329, -84.543499, 1795664515, 'device'], [2016, 'Cold room probe', 33.748294, -84.291626, 1795664236, 'sensor'],
        [2017, 'Dock door tag', 33.748321, -84.503892, 1795664382, 'sensor'], [2018, 'Reefer 07 probe', 33.747369, -84.290138, 1795664772, 'sensor'],
        [2019, 'Yard temp tag', 33.648797, -84.391012, 1795534471, 'sensor'],
      ];
      const records: UnitRecord[] = fleet.map(([did, name, lat, lng, time, category]) => ({
        did, name, category, lastValidLatitude: lat, lastValidLongitude: lng, lastGPSTimestamp: time, lastBatteryLevel: 80,
      }));
      const file = join(dir, 'units-legend.html');
      writeFileSync(file, [...buildUnitsPage(records, { nowMs: at * 1000, staleS: DAY, zone: 'UTC' })].join(''));
      const d = await openMap(browser, file, 'map-units-legend');
      assertClean(d);
      assert.equal(d.dom.units, fleet.length);
      await assertUnitsReadable(d.page, fleet.length);
      await d.page.close();
    });

    await t.test('units through a day (every 3 h, the sandbox clock set): labels and markers stay readable', async () => {
      // Where the demo fleet stands, and so where labels fall, changes with the hour: the page is
      // drawn from the fleet at eight moments of one day (night at the depots, the working day).
      const base = Date.parse('2026-11-26T01:30:00Z');
      const unreadable: string[] = [];
      try {
        for (let k = 0; k < 8; k++) {
          const ms = base + k * 3 * HOUR * 1000;
          h.sandbox.setNow(ms);
          // The page is built here from the fleet's records: the records need no process of their own.
          const listed = await h.runIn(['units', '-o', 'json']);
          assert.equal(listed.code, 0, listed.stderr);
          const records = JSON.parse(listed.stdout) as UnitRecord[];
          const file = join(dir, `units-${k}.html`);
          writeFileSync(file, [...buildUnitsPage(records, { nowMs: ms, staleS: DAY, zone: 'UTC' })].join(''));
          const d = await openMap(browser, file, `map-units-${k}`);
          assertClean(d);
          try {
            await assertUnitsReadable(d.page, d.dom.units);
          } catch (err) {
            unreadable.push(`${new Date(ms).toISOString()}: ${(err as Error).message.split('\n')[0]}`);
          }
          await d.page.close();
        }
      } finally {
        h.sandbox.setNow(T0 * 1000);
      }
      assert.deepEqual(unreadable, []);
    });

    await t.test('text from the service stays text (a unit named like markup)', async () => {
      const evil = '<img src=x onerror="document.body.dataset.pwned=1"></script><b>Van';
      const renamed = await h.runIn(['devices', 'update', '2006', '--name', evil]);
      assert.equal(renamed.code, 0, renamed.stderr);
      const r = await h.run(['units', '-o', 'html']);
      assert.equal(r.code, 0, r.stderr);
      const file = join(dir, 'units-escaped.html');
      writeFileSync(file, r.stdout);
      const d = await openMap(browser, file, 'map-units-escaped');
      assertClean(d);
      assert.equal(await d.page.locator('img[src="x"], b').count(), 0, 'the name did not become markup');
      assert.equal(await d.page.evaluate('document.body.dataset.pwned'), undefined);
      assert.equal(await d.page.locator('.trk-label', { hasText: 'onerror' }).count(), 1, 'the name is shown as text');
      await d.page.close();
    });

    await t.test('report trips -o html from the real binary: a line per trip, a marker per stop', async () => {
      const args = ['--group', '101', '--from', ago(DAY)];
      const r = await h.run(['report', 'trips', ...args, '-o', 'html']);
      assert.equal(r.code, 0, r.stderr);
      const trips = JSON.parse((await h.runIn(['report', 'trips', ...args, '-o', 'json'])).stdout) as unknown[];
      const stops = JSON.parse((await h.runIn(['report', 'stops', ...args, '-o', 'json'])).stdout) as unknown[];
      assert.ok(trips.length > 3 && stops.length > 3, 'the sandbox fleet drove');
      const file = join(dir, 'report-trips.html');
      writeFileSync(file, r.stdout);
      const d = await openMap(browser, file, 'map-report-trips');
      assertClean(d);
      assert.equal(d.dom.trips, trips.length);
      assert.equal(d.dom.stops, stops.length);
      await d.page.close();
    });

    await t.test('trips and stops (buildTripsPage) from fixtures', async () => {
      const trips: TripRecord[] = [
        {
          did: 2004, name: 'Ford Transit 01', start: 1_795_500_000, end: 1_795_502_400, duration: 2400, distanceKm: 12.4,
          startLat: 33.75, startLng: -84.39, endLat: 33.8, endLng: -84.3,
          path: [[-84.39, 33.75], [-84.37, 33.76], [-84.35, 33.765], [-84.33, 33.78], [-84.31, 33.79], [-84.3, 33.8]],
        },
        { did: 2004, name: 'Ford Transit 01', start: 1_795_506_000, end: 1_795_507_800, duration: 1800, distanceKm: 6.1, startLat: 33.8, startLng: -84.3, endLat: 33.84, endLng: -84.26 },
        { did: 2005, name: 'Ford Transit 02', start: 1_795_501_000, end: 1_795_504_000, duration: 3000, distanceKm: 15.2, startLat: 33.7, startLng: -84.45, endLat: 33.74, endLng: -84.36 },
      ];
      const stops: StopRecord[] = [
        { did: 2004, name: 'Ford Transit 01', arrival: 1_795_502_400, departure: 1_795_506_000, duration: 3600, lat: 33.8, lng: -84.3, address: '12 Depot Rd, Atlanta, GA' },
        { did: 2004, name: 'Ford Transit 01', arrival: 1_795_507_800, departure: null, duration: 900, lat: 33.84, lng: -84.26, address: null },
        { did: 2005, name: 'Ford Transit 02', arrival: 1_795_504_000, departure: 1_795_505_000, duration: 1000, lat: 33.74, lng: -84.36, address: '9 Market St <b>x</b>' },
      ];
      const file = join(dir, 'trips.html');
      writeFileSync(file, buildTripsPage(trips, stops, 'UTC'));
      const d = await openMap(browser, file, 'map-trips');
      assertClean(d);
      assert.equal(d.dom.trips, 3);
      assert.equal(d.dom.tripEnds, 3);
      assert.equal(d.dom.stops, 3);
      const dashed = await d.page.locator('path.trk-trip[stroke-dasharray]').count();
      assert.equal(dashed, 2, 'trips without a path are straight dashed lines');
      assert.equal(d.dom.legendRows, 2 + 1 + 1, 'two units, stops, the dashed-line note');
      await d.page.locator('.trk-marker-stop').first().click();
      const text = await d.page.locator('.leaflet-popup-content').innerText();
      assert.match(text, /Duration\s+1 h 0 min/);
      assert.match(text, /12 Depot Rd/);
      assert.match(await d.page.locator('header h1').innerText(), /Trips and stops of Ford Transit 01, Ford Transit 02/);
      assert.equal(await d.page.locator('.leaflet-popup-content b').count(), 0);
      await d.page.close();
    });

    await t.test('events at one place: each marker takes a click and shows its own report', async () => {
      // An sos and a crash of one stop, at the very same fix: drawn on top of each other, only one could be clicked.
      const at = (i: number, reportType: string): ReportFeature => ({
        type: 'Feature',
        properties: {
          aid: 1, did: 2004, name: 'Ford Transit 01', availability: 'available', lat: 33.75, lng: -84.39, alt: 300, speed: 0, heading: 0,
          source: 'gps', address: `${i} Depot Rd`, date: T0 - 3600 + i * 60, battery: 80, odometer: null, precision: 5, satellites: 9,
          temperature: null, reportType, reportValue: '', message: `${reportType} ${i}`,
        },
        geometry: { type: 'Point', coordinates: [-84.39, 33.75] },
      });
      const file = join(dir, 'same-place.html');
      writeFileSync(file, await historyPage([at(0, 'report'), at(1, 'sos'), at(2, 'crash'), at(3, 'sos')]));
      const d = await openMap(browser, file, 'map-history-same-place');
      assertClean(d);
      assert.equal(d.dom.sos, 2);
      assert.equal(d.dom.crash, 1);
      const markers = d.page.locator('.trk-marker');
      const seen = new Set<string>();
      // An open popup pans the map into view: a click aimed while it moves lands beside the marker.
      const still = (): Promise<unknown> => d.page.waitForFunction("!document.querySelector('.leaflet-pan-anim, .leaflet-zoom-anim')");
      for (let k = 0; k < (await markers.count()); k++) {
        const marker = markers.nth(k);
        const kind = (await marker.getAttribute('class'))!.includes('trk-marker-sos') ? 'sos' : 'crash';
        await still();
        // The mouse, at the marker's middle: a marker under another would not take it (and the click would time out).
        await marker.click({ timeout: 5000 });
        const text = await d.page.locator('.leaflet-popup-content', { hasText: kind }).innerText();
        assert.match(text, new RegExp(`Type\\s+${kind}`), `marker ${k}: ${text}`);
        seen.add(`${kind} ${/Address\s+(\d) Depot Rd/.exec(text)?.[1]}`);
        await still();
        await d.page.locator('.leaflet-popup-close-button').click();
        await d.page.locator('.leaflet-popup-content').waitFor({ state: 'detached' });
      }
      assert.deepEqual([...seen].sort(), ['crash 2', 'sos 1', 'sos 3'], 'each event of the place, once');
      await d.page.close();
    });

    await t.test('no reports: the page says so and draws nothing', async () => {
      const file = join(dir, 'empty.html');
      writeFileSync(file, await historyPage([]));
      const d = await openMap(browser, file, 'map-empty');
      assertClean(d);
      assert.equal(d.dom.tracks + d.dom.points + d.dom.units, 0);
      assert.equal(await d.page.locator('.trk-notice', { hasText: 'Nothing to show' }).count(), 1);
      await d.page.close();
    });

    await t.test('a 100,000-point history stays small enough and opens', async (st) => {
      const n = 100_000;
      const features: ReportFeature[] = [];
      let lat = 33.75;
      let lng = -84.39;
      let seed = 7;
      const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      for (let i = 0; i < n; i++) {
        lat += (rand() - 0.5) * 0.002;
        lng += (rand() - 0.45) * 0.002;
        features.push({
          type: 'Feature',
          properties: {
            aid: 1, did: 3000 + (i % 2), name: i % 2 ? 'Long haul B' : 'Long haul A', availability: 'available', lat, lng, alt: 300, speed: Math.round(rand() * 900) / 10,
            heading: 0, source: 'gps', address: `${i % 500} Long Rd`, date: 1_795_000_000 + i * 10, battery: 80, odometer: null, precision: 5,
            satellites: 9, temperature: null, reportType: i % 10_000 === 5 ? 'sos' : 'report', reportValue: '', message: '',
          },
          geometry: { type: 'Point', coordinates: [lng, lat] },
        });
      }
      const file = join(dir, 'big.html');
      writeFileSync(file, await historyPage(features, 2000));
      const size = statSync(file).size;
      st.diagnostic(`100,000-point page: ${(size / 1024 / 1024).toFixed(2)} MB`);
      assert.ok(size < 6 * 1024 * 1024, `under 6 MB, got ${size}`);
      const d = await openMap(browser, file, 'map-history-100k', 90_000);
      st.diagnostic(`100,000-point page drawn in ${d.loadMs} ms`);
      assertClean(d);
      assert.ok(d.loadMs < 30_000, `drawn within 30 s (${d.loadMs} ms)`);
      assert.equal(d.dom.tracks, 2);
      assert.equal(d.dom.sos, 10, 'every event is kept');
      assert.ok(d.dom.points > 100 && d.dom.points <= 3000, `the dots are thinned: ${d.dom.points}`);
      // A click on the line finds the exact nearest report among all 100,000.
      await d.page.locator('path.trk-track').first().click({ force: true });
      assert.match(await d.page.locator('.leaflet-popup-content').innerText(), /Long haul [AB][\s\S]*Address\s+\d+ Long Rd/);
      await d.page.close();
    });
  }, { now: () => T0 * 1000 });
});
