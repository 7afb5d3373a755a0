/**
 * Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) for the map
 * pages. Every request that is not file: or data: is aborted, so a page that draws proves
 * it works offline; the OpenStreetMap tiles it asks for fail, and only those failures are
 * allowed on the console. Screenshots go to test-output/ (gitignored) for people to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './cli.js';

export const CHROMIUM = process.env.TRACKCTL_CHROMIUM ?? '/usr/bin/chromium';
export const TEST_OUTPUT = join(ROOT, 'test-output');

/** Playwright gives each launch a fresh, temporary profile (its own --user-data-dir). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });
}

/** What a map page drew (the page script's own count) and what the DOM holds, by class. */
export interface Drawn {
  reported: Record<string, number>;
  dom: Record<string, number>;
  /** Console errors and page errors, apart from the tile requests the test blocked. */
  errors: string[];
  /** Requests the page made that were aborted (all of them must be tiles). */
  blocked: string[];
  loadMs: number;
}

const DOM_COUNTS: Record<string, string> = {
  tracks: 'path.trk-track',
  points: 'path.trk-point',
  last: 'path.trk-last',
  sos: '.leaflet-marker-icon.trk-marker-sos',
  crash: '.leaflet-marker-icon.trk-marker-crash',
  trips: 'path.trk-trip',
  tripEnds: 'path.trk-trip-end',
  stops: '.leaflet-marker-icon.trk-marker-stop',
  units: 'path.trk-unit',
  moving: 'path.trk-unit-moving',
  stopped: 'path.trk-unit-stopped',
  stale: 'path.trk-unit-stale',
  sensor: 'path.trk-unit-sensor',
  labels: '.leaflet-tooltip.trk-label',
  labelsShown: '.leaflet-tooltip.trk-label:not(.trk-label-hover)',
  notes: '.trk-note',
  legendRows: '.trk-legend > div',
  scale: '.leaflet-control-scale',
  attribution: '.leaflet-control-attribution a[href*="openstreetmap.org/copyright"]',
};

/** Opens a page file, waits until its script has drawn, counts, and saves a screenshot as test-output/<name>.png. */
export async function openMap(browser: Browser, file: string, name: string, timeoutMs = 60_000): Promise<Drawn & { page: Page }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  const errors: string[] = [];
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const at = m.location().url;
    if (m.text().startsWith('Failed to load resource') && at.startsWith('https://tile.openstreetmap.org/')) return;
    errors.push(`${m.text()} (${at})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const t0 = Date.now();
  await page.goto(`file://${file}`, { timeout: timeoutMs });
  await page.waitForSelector('body[data-drawn]', { state: 'attached', timeout: timeoutMs });
  const loadMs = Date.now() - t0;
  const reported = (await page.evaluate('window.trackctlMap')) as Record<string, number>;
  const dom: Record<string, number> = {};
  for (const [key, selector] of Object.entries(DOM_COUNTS)) dom[key] = await page.locator(selector).count();
  mkdirSync(TEST_OUTPUT, { recursive: true });
  await page.waitForTimeout(200); // tile errors settle
  await page.screenshot({ path: join(TEST_OUTPUT, `${name}.png`) });
  return { page, reported, dom, errors, blocked, loadMs };
}
