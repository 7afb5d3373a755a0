/**
 * What a real service sends where the interface leaves room, from a fake service (a
 * node:http server in this file, answering the bodies each test sets), driving the
 * real built binary: empty collections in any JSON form, unknown fields and report
 * types, null for missing values, numbers as numeric strings, and a 200 reply that
 * carries an error instead of `success`. A request the test did not expect fails loudly.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { runPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';

type Body = unknown;
/** "GET /v2/devices/" → the body (JSON-encoded unless a string) and status (200). */
let routes: Map<string, { status: number; body: Body }>;
let seen: string[];
let server: Server;
let base: string;
let dir: string;
let env: Record<string, string>;

const NOW = Math.floor(Date.now() / 1000);

function jwt(): string {
  const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const claims = { aud: 'trackctl', jti: 'j1', iat: NOW, nbf: NOW, exp: NOW + 3600, sub: '1001:501', scopes: ['all'] };
  return `${part({ typ: 'JWT', alg: 'HS256' })}.${part(claims)}.c2lnbmF0dXJl`;
}

function on(method: string, path: string, body: Body, status = 200): void {
  routes.set(`${method} ${path}`, { status, body });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

before(async () => {
  server = createServer((req, res) => {
    void readBody(req).then(() => {
      const key = `${req.method} ${req.url}`;
      seen.push(key);
      if (key === 'POST /v2/access-token/') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ token_type: 'Bearer', expires_in: 3600, access_token: jwt(), refresh_token: 'r1' }));
      }
      if (key === 'POST /api/login/') {
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=s1; Path=/; HttpOnly' });
        return res.end(JSON.stringify({ success: 'Logged in successfully!', aid: 1001, uid: 501, name: 'Fake', userType: 'dispatcher' }));
      }
      const route = routes.get(key);
      if (!route) {
        res.writeHead(418, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: `the fake service has no route for ${key}` }));
      }
      res.writeHead(route.status, { 'content-type': 'application/json' });
      res.end(typeof route.body === 'string' ? route.body : JSON.stringify(route.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  base = `http://127.0.0.1:${address.port}`;
  dir = mkdtempSync(join(tmpdir(), 'trackctl-tolerance-'));
  env = {
    TRACKCTL_CONFIG_DIR: join(dir, 'config'),
    TRACKCTL_DATA_DIR: join(dir, 'data'),
    TRACKCTL_BASE_URL: base,
    TRACKCTL_CREDENTIAL_STORE: 'file',
    TRACKCTL_EMAIL: 'ops@example.com',
    TRACKCTL_PASSWORD: 'pw',
    TRACKCTL_RETRIES: '0',
    NO_COLOR: '1',
  };
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  routes = new Map();
  seen = [];
});

/** The real program in this process (a fake service answers; nothing here needs a process of its own). */
const trackctl = (args: string[]): Promise<RunResult> => runInProcess(args, { env });

async function json<T>(args: string[]): Promise<T> {
  const r = await trackctl([...args, '-o', 'json']);
  assert.equal(r.code, 0, `trackctl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const unit = (did: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  did, name: `Unit ${did}`, uniqueID: null, trackerID: `IMEI${did}`, deviceType: 'TT8850', deviceCategory: 'device', isActive: 1,
  guard: null, humidity: null, airPressure: null, temperature: null, lastBatteryLevel: 80, lastGPSTimestamp: NOW - 60,
  lastKnownAddress: 'Main St', lastValidLatitude: 33.7, lastValidLongitude: -84.4, odometerKM: 1200, groupMember: [101], ...extra,
});

const feature = (props: Record<string, unknown>): Record<string, unknown> => ({
  type: 'Feature',
  properties: {
    aid: 1001, did: 2004, name: 'Van', availability: 'available', lat: 33.7, lng: -84.4, alt: 300, speed: 40, heading: 90, source: 'gps',
    address: 'Main St', date: NOW - 600, battery: 80, odometer: 1200, precision: 5, satellites: 9, temperature: null, reportType: 'report',
    reportValue: '', message: '', ...props,
  },
  geometry: { type: 'Point', coordinates: [-84.4, 33.7] },
});

const historyPath = (from: number): string => `/reports/history/2004/from:${from}/`;

describe('tolerance: empty collections in any JSON form', () => {
  for (const [label, result] of [['[]', []], ['{}', {}], ['null', null]] as const) {
    test(`devices list with result ${label} prints [] and exits 0`, async () => {
      on('GET', '/v2/devices/', { success: 'Devices have been successfully retrieved.', result, resultCount: 0 });
      assert.deepEqual(await json(['devices', 'list']), []);
    });
  }

  test('devices list with result left out is no list: exit 1 naming the status', async () => {
    on('GET', '/v2/devices/', { success: 'Devices have been successfully retrieved.', resultCount: 0 });
    const r = await trackctl(['devices', 'list', '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /status 200\): no "result"/);
  });

  test('units: every collection as [], null, {} or left out', async () => {
    on('GET', '/all-units/', { success: 'ok', devices: [], sensors: null, dispatchers: {} });
    assert.deepEqual(await json(['units']), []);
    const table = await trackctl(['units', '--stale', '1d']);
    assert.equal(table.code, 0, table.stderr);
  });

  test('history: features as [], null or {} is an empty history; left out, no history (exit 1)', async () => {
    for (const features of [[], null, {}]) {
      on('GET', historyPath(NOW - 3600), { features, success: 'Reports have been successfully retrieved.' });
      assert.deepEqual(await json(['history', '2004', '--from', String(NOW - 3600)]), [], `features ${JSON.stringify(features)}`);
    }
    on('GET', historyPath(NOW - 3600), { success: 'Reports have been successfully retrieved.' });
    const r = await trackctl(['history', '2004', '--from', String(NOW - 3600), '-o', 'json']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no "features" \(status 200/);
  });

  test('a get whose result is empty is "not found" (exit 4), not a crash', async () => {
    on('GET', '/v2/devices/did/2004', { success: 'ok', result: [], resultCount: 0 });
    const r = await trackctl(['devices', 'get', '2004']);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /no record/);
  });
});

describe('tolerance: unknown fields and report types', () => {
  const odd = unit(2004, { firmware: 'v9.1', simICCID: '8901', extra: { nested: [1, { a: null }] } });

  test('passed through unchanged in json, ndjson and yaml', async () => {
    on('GET', '/v2/devices/', { success: 'ok', result: { 2004: odd }, resultCount: 1, cursor: 'next-page' });
    assert.deepEqual(await json(['devices', 'list']), [odd]);
    const nd = await trackctl(['devices', 'list', '-o', 'ndjson']);
    assert.deepEqual(JSON.parse(nd.stdout), odd);
    const yaml = await trackctl(['devices', 'list', '-o', 'yaml']);
    assert.deepEqual(parseYaml(yaml.stdout), [odd]);
  });

  test('shown in the terminal record view of a get', async (t) => {
    if (!needTool(t, 'tmux')) return;
    on('GET', '/v2/devices/did/2004', { success: 'ok', result: { 2004: odd }, resultCount: 1 });
    const r = await runPty(['devices', 'get', '2004'], env, { cols: 100 });
    assert.equal(r.code, 0, r.screen);
    assert.match(r.screen, /FIRMWARE:\s+v9\.1/);
    assert.match(r.screen, /SIM ICCID:\s+8901/);
  });

  test('an unknown report type and property pass through history json and show in its table', async () => {
    const from = NOW - 3600;
    const geofence = feature({ reportType: 'geofence_alarm', reportValue: 'zone 4', fenceId: 'Z4' });
    on('GET', historyPath(from), { features: [feature({}), geofence], success: 'Reports have been successfully retrieved.' });
    const got = await json<Array<Record<string, unknown>>>(['history', '2004', '--from', String(from)]);
    assert.deepEqual(got[1], geofence);
    const table = await trackctl(['history', '2004', '--from', String(from)]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /geofence_alarm/);
  });
});

describe('tolerance: null wherever a value can be missing', () => {
  const nulls = unit(2004, {
    name: null, deviceType: null, lastBatteryLevel: null, lastGPSTimestamp: null, lastKnownAddress: null,
    lastValidLatitude: null, lastValidLongitude: null, odometerKM: null, groupMember: null, isActive: null,
  });

  test('devices list: every format, and the --group filter', async () => {
    on('GET', '/v2/devices/', { success: 'ok', result: { 2004: nulls, 2005: unit(2005) }, resultCount: 2 });
    for (const format of ['table', 'csv', 'yaml', 'ndjson']) {
      const r = await trackctl(['devices', 'list', '-o', format]);
      assert.equal(r.code, 0, `${format}: ${r.stderr}`);
      assert.match(r.stdout, /2004/);
    }
    const listed = await json<Array<{ did: number; groupMember: unknown }>>(['devices', 'list']);
    assert.deepEqual(listed[0]?.groupMember, [], 'a missing id list is empty');
    assert.deepEqual((await json<Array<{ did: number }>>(['devices', 'list', '--group', '101'])).map((u) => u.did), [2005]);
  });

  test('units with --stale and --low-battery, users with null lists and no device', async () => {
    const user = { uid: 7, name: null, email: null, userType: 'dispatcher', isActive: null, lastLoginTime: null, groupMember: null, groupViewer: null };
    on('GET', '/all-units/', { success: 'ok', devices: { 2004: nulls }, sensors: {}, dispatchers: { 7: user }, trackedUsers: {} });
    const stale = await json<Array<{ did: number }>>(['units', '--stale', '1h']);
    assert.deepEqual(stale.map((u) => u.did), [2004], 'a unit that never reported is stale');
    const low = await json<unknown[]>(['units', '--low-battery', '20']);
    assert.deepEqual(low, [], 'an unknown battery level is not low');
    const table = await trackctl(['units']);
    assert.equal(table.code, 0, table.stderr);
  });

  test('history: null properties and a null geometry', async () => {
    const from = NOW - 3600;
    const bare = { ...feature({ address: null, odometer: null, speed: null, battery: null, message: null }), geometry: null };
    on('GET', historyPath(from), { features: [bare], success: 'ok' });
    for (const format of ['json', 'csv', 'table', 'geojson']) {
      const r = await trackctl(['history', '2004', '--from', String(from), '-o', format]);
      assert.equal(r.code, 0, `${format}: ${r.stderr}`);
    }
  });
});

describe('tolerance: numbers as numeric strings', () => {
  test('units: ids, battery and times as strings still filter, sort and print as numbers', async () => {
    const strings = unit(2004, { did: '2004', lastBatteryLevel: '15', lastGPSTimestamp: String(NOW - 3 * 86400), isActive: '1', groupMember: ['101'] });
    on('GET', '/all-units/', { success: 'ok', devices: { 2004: strings, 2005: unit(2005) }, sensors: {}, dispatchers: {}, trackedUsers: {} });
    const low = await json<Array<Record<string, unknown>>>(['units', '--low-battery', '20']);
    assert.deepEqual(low.map((u) => [u.did, u.lastBatteryLevel]), [[2004, 15]]);
    assert.deepEqual(low[0]?.groupMember, [101]);
    const stale = await json<Array<{ did: number }>>(['units', '--stale', '1d']);
    assert.deepEqual(stale.map((u) => u.did), [2004]);
    const tsv = await trackctl(['units', '--stale', '1d']);
    assert.match(tsv.stdout, new RegExp(new Date((NOW - 3 * 86400) * 1000).toISOString().slice(0, 16)), 'the time prints as RFC 3339');
  });

  test('create: an id sent as a string', async () => {
    on('POST', '/v2/devices/', { success: 'Device has been created successfully!', result: { 2030: unit(2030, { did: '2030' }) }, id: '2030', resultCount: '1' });
    const created = await json<{ did: number }>(['devices', 'create', '--name', 'Van', '--tracker-id', 'X1', '--type', 'TT8850']);
    assert.equal(created.did, 2030);
  });

  test('history: dates, coordinates and speeds as strings', async () => {
    const from = NOW - 3600;
    const f = { ...feature({ date: String(NOW - 120), did: '2004', lat: '33.5', lng: '-84.25', speed: '12.5' }), geometry: { type: 'Point', coordinates: ['-84.25', '33.5'] } };
    on('GET', historyPath(from), { features: [f], success: 'ok' });
    const csv = await trackctl(['history', '2004', '--from', String(from), '-o', 'csv', '--fields', 'date,did,lat,speed']);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout.trim().split('\n')[1], `${NOW - 120},2004,33.5,12.5`);
    const gpx = await trackctl(['history', '2004', '--from', String(from), '-o', 'gpx']);
    assert.equal(gpx.code, 0, gpx.stderr);
    assert.match(gpx.stdout, /lat="33\.5" lon="-84\.25"/);
  });
});

describe('tolerance: a 200 reply that carries an error', () => {
  const cases: Array<[string, Body]> = [
    ['{"error": text}', { error: 'Account suspended: contact billing' }],
    ['OAuth style', { error: 'invalid_request', error_description: 'Account suspended: contact billing' }],
    ['success false', { success: false, message: 'Account suspended: contact billing' }],
    ['errors list', { errors: [{ message: 'Account suspended: contact billing' }] }],
  ];
  for (const [label, body] of cases) {
    test(`devices list: ${label} → exit 1 with the service's text`, async () => {
      on('GET', '/v2/devices/', body);
      const r = await trackctl(['devices', 'list', '-o', 'json']);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '', 'no empty success on stdout');
      assert.match(r.stderr, /Account suspended: contact billing/);
    });
  }

  test('units, delete and history fail the same way', async () => {
    on('GET', '/all-units/', { error: 'Session limit reached' });
    on('DELETE', '/v2/devices/did/2004', { success: false, message: 'Device is locked' });
    on('GET', historyPath(NOW - 3600), { error: 'History is disabled for this account' });
    const units = await trackctl(['units']);
    assert.equal(units.code, 1, units.stderr);
    assert.match(units.stderr, /Session limit reached/);
    const del = await trackctl(['devices', 'delete', '2004', '--yes']);
    assert.equal(del.code, 1, del.stderr);
    assert.match(del.stderr, /Device is locked/);
    const history = await trackctl(['history', '2004', '--from', String(NOW - 3600), '-o', 'json']);
    assert.notEqual(history.code, 0, history.stderr);
    assert.match(history.stderr, /History is disabled for this account/);
  });
});
