/**
 * -o html and `trackctl map` from the command line: the page is data on stdout when piped,
 * a file (named on stderr) on a terminal; map writes a temporary file and opens it (on a
 * terminal) or prints its path; Leaflet loads only for html. The pages themselves are
 * checked in a browser by map-browser.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, loadedDistFiles, startHarness, type Harness } from '../helpers/cli.js';
import { runPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';

/** A frozen sandbox clock and absolute windows: runs compared with each other see the same reports. */
const T0 = Math.floor(Date.now() / 1000);
const HOUR = 3600;
const DAY = 24 * HOUR;
const ago = (seconds: number): string => String(T0 - seconds);

let h: Harness;
before(async () => {
  // In-process; spawned where the load of modules is looked at, and for map, which runs the binary
  // again as its child (process.argv[1]: in this process, the test file).
  h = await startHarness({ now: () => T0 * 1000, inProcess: true });
});
after(async () => {
  await h?.close();
});

/** Leaflet's own banner: the chunk holding it is the map code. */
const LEAFLET = /a JS library for interactive maps/;

function assertSelfContained(html: string): void {
  assert.match(html, /^<!DOCTYPE html>\n/);
  assert.match(html, /<\/html>\n$/);
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=|<img[^>]+src=/i, 'no external script, stylesheet or image');
  assert.match(html, LEAFLET, 'Leaflet is inlined');
  assert.match(html, /https:\/\/tile\.openstreetmap\.org\/\{z\}\/\{x\}\/\{y\}\.png/, 'OpenStreetMap tiles when online');
}

test('history -o html piped: the page on stdout, nothing on stderr, well under 1 MB for a day', async () => {
  const r = await h.run(['history', '2004', '--from', ago(DAY), '-o', 'html']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assertSelfContained(r.stdout);
  assert.match(r.stdout, /<title>History of Ford Transit 01<\/title>/);
  const size = Buffer.byteLength(r.stdout);
  assert.ok(size < 400 * 1024, `a sandbox day is ${size} bytes`);
  const data = JSON.parse(/<script type="application\/json" id="map-data">(.*?)<\/script>/s.exec(r.stdout)![1]!) as { tracks: Array<{ did: number; t: number[] }> };
  const reports = (await h.run(['history', '2004', '--from', ago(DAY), '-o', 'ndjson'])).stdout.trim().split('\n').length;
  assert.deepEqual(data.tracks.map((t) => [t.did, t.t.length]), [[2004, reports]], 'every report is in the page');
});

test('units -o html piped: the page on stdout', async () => {
  const r = await h.run(['units', '-o', 'html']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assertSelfContained(r.stdout);
  assert.match(r.stdout, /<title>Where the units are<\/title>/);
  assert.match(r.stdout, /"name":"Ford Transit 01"/);
  // Filters apply to the map as to the table.
  const stale = await h.run(['units', '--stale', '1d', '-o', 'html']);
  const ids = [...stale.stdout.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1]));
  const table = JSON.parse((await h.run(['units', '--stale', '1d', '-o', 'json'])).stdout) as Array<{ did?: number; lastValidLatitude?: number }>;
  assert.deepEqual(ids.sort(), table.filter((u) => u.did !== undefined && u.lastValidLatitude).map((u) => u.did).sort());
});

test('-o html is offered where it works, and only there', async () => {
  await h.expectUsage(['devices', 'list', '-o', 'html'], 'unknown output format "html"');
  await h.expectUsage(['history', '2004', '--follow', '-o', 'html'], 'cannot be used with --follow');
  const help = await h.run(['history', '--help']);
  assert.match(help.stdout, /html/);
});

/** Whether the run loaded the chunk that holds Leaflet (NODE_DEBUG=trackctl lists each dist/ file loaded). */
async function loadsLeaflet(args: string[]): Promise<boolean> {
  const r = await h.spawn(args, { env: { NODE_DEBUG: 'trackctl' } });
  assert.equal(r.code, 0, r.stderr.slice(-500));
  const files = loadedDistFiles(r.stderr);
  assert.ok(files.length > 0, 'the loaded files are listed');
  return files.some((f) => LEAFLET.test(readFileSync(join(ROOT, f), 'utf8')));
}

test('Leaflet and the page code load only for -o html', async () => {
  assert.equal(await loadsLeaflet(['history', '2004', '-o', 'ndjson']), false, 'history -o ndjson');
  assert.equal(await loadsLeaflet(['units', '-o', 'json']), false, 'units -o json');
  assert.equal(await loadsLeaflet(['map', '--help']), false, 'map --help');
  assert.equal(await loadsLeaflet(['history', '2004', '-o', 'html']), true, 'history -o html');
  assert.equal(await loadsLeaflet(['units', '-o', 'html']), true, 'units -o html');
});

test('map without a terminal: writes a temporary page and prints its path', async () => {
  const r = await h.spawn(['map', 'history', '2004', '--from', ago(DAY)]);
  assert.equal(r.code, 0, r.stderr);
  const path = r.stdout.trim();
  assert.match(path, /^\/.*trackctl-maps\/history-\d{8}-\d{6}-[0-9a-f]{6}\.html$/);
  try {
    assert.equal(r.stdout, `${path}\n`, 'only the path on stdout');
    assert.equal(statSync(path).mode & 0o777, 0o600, 'readable by its owner only');
    const html = readFileSync(path, 'utf8');
    assertSelfContained(html);
    assert.equal(html, (await h.run(['history', '2004', '--from', ago(DAY), '-o', 'html'])).stdout, 'the page -o html prints');
  } finally {
    rmSync(path, { force: true });
  }
  const units = await h.spawn(['-q', 'map', 'units', '--category', 'sensor']);
  assert.equal(units.code, 0, units.stderr);
  const page = readFileSync(units.stdout.trim(), 'utf8');
  rmSync(units.stdout.trim());
  assert.match(page, /Cold room probe/);
  assert.doesNotMatch(page, /Ford Transit 01/, 'the units options reached units');
});

test('map: usage errors, and a failed command leaves no page', async () => {
  await h.expectUsage(['map', 'devices'], 'map draws history or units');
  await h.expectUsage(['map', 'history', '2004', '-o', 'json'], 'drop -o json');
  // map runs the binary again as its child (which refuses abc): a process, so spawned.
  h.sandbox.clearRequests();
  const abc = await h.spawn(['map', 'history', 'abc']);
  assert.equal(abc.code, 2, abc.stderr);
  assert.match(abc.stderr, /abc/);
  // Reports without a map say so, and name the ones with one (not "unknown output format": no -o was given).
  for (const kind of ['summary', 'geofence']) {
    const r = await h.run(['map', 'report', kind, '2004', '--from', '1d']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`report ${kind} has no map; the reports with one are trips and stops`));
    assert.doesNotMatch(r.stderr, /output format/);
    assert.equal(r.stdout, '');
  }
  assert.deepEqual(h.sent(), [], 'nothing was sent');
  const r = await h.spawn(['map', 'history', '999999']);
  assert.equal(r.code, 4, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /999999/);
});

test('history -o html on a terminal writes a file in the current directory and says where', async (t) => {
  if (!needTool(t, 'tmux')) return;
  const r = await runPty(['history', '2004', '--from', ago(DAY), '-o', 'html'], h.env, { cols: 200 });
  assert.equal(r.code, 0, r.screen);
  const m = /Wrote the map to (\/\S+\.html) \((\d+) KB\)/.exec(r.screen);
  assert.ok(m, r.screen);
  const path = m[1]!;
  try {
    assert.match(path, new RegExp(`^${ROOT}/trackctl-history-\\d{8}-\\d{6}(-\\d+)?\\.html$`));
    assertSelfContained(readFileSync(path, 'utf8'));
    assert.doesNotMatch(r.screen, /<!DOCTYPE|<script/, 'no markup on the terminal');
  } finally {
    rmSync(path, { force: true });
  }
});

test('map on a terminal opens the page with $BROWSER', async (t) => {
  if (!needTool(t, 'tmux')) return;
  const log = join(tmpdir(), `trackctl-browser-${process.pid}.log`);
  const browser = join(tmpdir(), `trackctl-browser-${process.pid}.sh`);
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" > '${log}'\n`);
  chmodSync(browser, 0o755);
  try {
    const r = await runPty(['map', 'units'], { ...h.env, BROWSER: browser }, { cols: 200 });
    assert.equal(r.code, 0, r.screen);
    const m = /Opened the map in your browser: (\/\S+\.html)/.exec(r.screen);
    assert.ok(m, r.screen);
    assert.equal(readFileSync(log, 'utf8').trim(), m[1], 'the browser was given the page');
    assert.match(readFileSync(m[1]!, 'utf8'), /Where the units are/);
    rmSync(m[1]!);
    // No browser to be found: the page is still there, and the message says where.
    const none = await runPty(['map', 'units'], { ...h.env, BROWSER: '/nonexistent/browser' }, { cols: 200 });
    assert.equal(none.code, 0, none.screen);
    const where = /Could not open a browser \(.*\); the map is at (\/\S+\.html)/.exec(none.screen);
    assert.ok(where, none.screen);
    assert.ok(existsSync(where[1]!));
    rmSync(where[1]!);
  } finally {
    rmSync(log, { force: true });
    rmSync(browser, { force: true });
  }
});
