/**
 * What the map tests share: a history page built in-process (as history -o html builds it), a
 * check that a page drew cleanly, and a browser with a sandbox around a test.
 */
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { HistoryItem } from '../../src/api/history.js';
import type { ReportFeature } from '../../src/api/types.js';
import { CSV_COLUMNS, flatReport } from '../../src/commands/history/columns.js';
import { openHistorySink } from '../../src/io/pages/geo/sink.js';
import { launchChromium, type Drawn } from './browser.js';
import { startHarness, type Harness } from './cli.js';
import { memoryIO } from './io.js';
import { needTool } from './tools.js';

/** The html sink fed in-process (as history feeds it), returning the page. */
export async function historyPage(features: ReportFeature[], batch = 500): Promise<string> {
  const io = memoryIO();
  const sink = openHistorySink({
    format: 'html',
    out: { io, format: 'table', header: true, color: false, tty: false, now: () => Date.now(), timeZone: 'UTC' },
    title: 'Units',
    columns: CSV_COLUMNS,
    flat: flatReport,
  });
  for (let i = 0; i < features.length; i += batch) {
    const items: HistoryItem[] = features.slice(i, i + batch).map((f) => ({ text: JSON.stringify(f), feature: f, verbatim: false }));
    await sink.write(items);
  }
  await sink.end();
  assert.equal(sink.count, features.length);
  return io.text();
}

export function assertClean(d: Drawn): void {
  assert.deepEqual(d.errors, [], 'no console errors');
  assert.ok(d.blocked.every((u) => u.startsWith('https://tile.openstreetmap.org/')), `only tiles were requested: ${d.blocked.slice(0, 3).join(', ')}`);
  assert.equal(d.dom.scale, 1, 'a scale bar');
  assert.equal(d.dom.attribution, 1, 'the OpenStreetMap attribution');
}

export async function withBrowser(
  t: TestContext, fn: (browser: Browser, h: Harness, dir: string) => Promise<void>, sandbox?: Parameters<typeof startHarness>[0],
): Promise<void> {
  if (!needTool(t, 'chromium')) return;
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-map-'));
  const h = await startHarness(sandbox);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    await fn(browser, h, dir);
  } finally {
    await browser?.close();
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

