/**
 * Report pages and long histories in a real browser (headless Chromium, the network blocked):
 * a page of stops alone speaks of stops and colours them by unit; a history with more sos and
 * crash reports than a page draws caps its markers and says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportFeature } from '../../src/api/types.js';
import { EVENT_MARKER_BUDGET } from '../../src/io/pages/map/history.js';
import { openMap } from '../helpers/browser.js';
import { assertClean, historyPage, withBrowser } from '../helpers/map-pages.js';

test('report pages and capped event markers in Chromium', { timeout: 240_000 }, async (t) => {
  await withBrowser(t, async (browser, h, dir) => {
    await t.test('report stops -o html: titled and counted as stops, a colour per unit', async () => {
      const args = ['--group', '101', '--from', '1d'];
      const r = await h.run(['report', 'stops', ...args, '-o', 'html']);
      assert.equal(r.code, 0, r.stderr);
      const stops = JSON.parse((await h.runIn(['report', 'stops', ...args, '-o', 'json'])).stdout) as Array<{ did: number }>;
      const units = new Set(stops.map((s) => s.did));
      assert.ok(stops.length > 3 && units.size > 1, 'several units stopped');
      const file = join(dir, 'report-stops.html');
      writeFileSync(file, r.stdout);
      const d = await openMap(browser, file, 'map-report-stops');
      assertClean(d);
      assert.equal(d.dom.stops, stops.length);
      assert.equal(d.dom.trips, 0);
      assert.match(await d.page.locator('header h1').innerText(), /^Stops of /);
      assert.match(await d.page.locator('header p').innerText(), new RegExp(`· ${stops.length} stops$`));
      const legend = await d.page.locator('.trk-legend').innerText();
      assert.doesNotMatch(legend, /trip/, 'nothing about trips');
      assert.equal(d.dom.legendRows, units.size, 'a row per unit');
      for (const did of units) assert.match(legend, new RegExp(`\\(${did}\\): ${stops.filter((s) => s.did === did).length} stops?`));
      // Each unit's stops in its own colour, the legend's swatch in the same one.
      const colours = (await d.page.evaluate(`[...document.querySelectorAll('.trk-marker-stop .trk-stop')].map((e) => getComputedStyle(e).backgroundColor)`)) as string[];
      assert.equal(new Set(colours).size, units.size, `a colour per unit: ${[...new Set(colours)].join(', ')}`);
      const swatches = (await d.page.evaluate(`[...document.querySelectorAll('.trk-legend .trk-stop')].map((e) => getComputedStyle(e).backgroundColor)`)) as string[];
      assert.deepEqual(new Set(swatches), new Set(colours));
      await d.page.close();
    });

    await t.test('more sos and crash reports than the page draws: capped, said on the page and in the legend', async () => {
      const n = 20_000;
      const features: ReportFeature[] = [];
      for (let i = 0; i < n; i++) {
        const lat = 33.75 + i * 1e-5;
        const lng = -84.39 + Math.sin(i / 300) * 0.01;
        features.push({
          type: 'Feature',
          properties: {
            aid: 1, did: 3100, name: 'Alarm box', availability: 'available', lat, lng, alt: 300, speed: 10, heading: 0, source: 'gps', address: null,
            date: 1_795_000_000 + i * 10, battery: 80, odometer: null, precision: 5, satellites: 9, temperature: null,
            reportType: i % 10 === 3 ? 'sos' : i % 10 === 7 ? 'crash' : 'report', reportValue: '', message: '',
          },
          geometry: { type: 'Point', coordinates: [lng, lat] },
        });
      }
      const file = join(dir, 'many-events.html');
      writeFileSync(file, await historyPage(features, 2000));
      const d = await openMap(browser, file, 'map-history-many-events');
      assertClean(d);
      assert.equal(d.dom.sos + d.dom.crash, EVENT_MARKER_BUDGET, 'as many markers as the cap');
      assert.ok(d.dom.sos > 200 && d.dom.crash > 200, 'both kinds, evenly spread');
      assert.equal(d.dom.notes, 1);
      assert.match(await d.page.locator('.trk-note').innerText(), new RegExp(`500 of 4,000 sos and crash reports are drawn as markers`));
      const legend = await d.page.locator('.trk-legend').innerText();
      assert.match(legend, /sos \(2,000, \d+ drawn\)/);
      assert.match(legend, /crash \(2,000, \d+ drawn\)/);
      await d.page.close();
    });

  });
});
