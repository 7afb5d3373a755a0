/**
 * The in-process runner (helpers/in-process.ts) runs the real program: the same exit codes,
 * streams and requests as the binary, against a recorded-HTTP registry or the sandbox.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { httpRegistry, runInProcess, type HttpRegistry } from '../helpers/in-process.js';
import { startHarness, type Harness } from '../helpers/cli.js';

const van = {
  did: 2004, name: 'Van 4', uniqueID: null, trackerID: '359881234567897', deviceType: 'TT8850', deviceCategory: 'device', isActive: 1,
  guard: null, humidity: null, airPressure: null, temperature: null, lastBatteryLevel: 90, lastGPSTimestamp: 1700000000,
  lastKnownAddress: 'Atlanta', lastValidLatitude: 33.75, lastValidLongitude: -84.4, odometerKM: 1200, groupMember: [],
};
const TOKEN = { TRACKCTL_TOKEN: 'test-token', TRACKCTL_RETRIES: '0', NO_COLOR: '1' };

describe('in-process runs against recorded HTTP', () => {
  let reg: HttpRegistry;
  before(async () => {
    reg = await httpRegistry();
  });
  after(async () => reg.close());

  test('a usage error: exit 2 on stderr, nothing on stdout, no request', async () => {
    const r = await runInProcess(['devices', 'list', '--actve'], { env: TOKEN, http: reg });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Did you mean --active\?/);
    assert.equal(r.stdout, '');
    assert.deepEqual(r.requests, []);
  });

  test('devices get -o json: the recorded reply, as the JSON record, and the one request it made', async () => {
    reg.register('GET /v2/devices/did/2004', { json: { success: 'ok', result: { 2004: van }, resultCount: 1 } });
    const r = await runInProcess(['devices', 'get', '2004', '-o', 'json'], { env: TOKEN, http: reg });
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse(r.stdout) as { did: number; name: string };
    assert.equal(got.did, 2004);
    assert.equal(got.name, 'Van 4');
    assert.deepEqual(r.requests, ['GET /v2/devices/did/2004']);
    reg.verify();
  });

  test('the fixed clock decides how long ago a terminal table says the last report was', async () => {
    const list = { json: { success: 'ok', result: { 2004: van }, resultCount: 1 } };
    reg.register('GET /v2/devices/', list, 2);
    const at = (now: number) => runInProcess(['devices', 'list'], { env: TOKEN, http: reg, now, tty: { stdout: true }, columns: 200 });
    const two = await at((van.lastGPSTimestamp + 2 * 3600) * 1000);
    assert.equal(two.code, 0, two.stderr);
    assert.match(two.stdout, /\b2 h ago\b/);
    const five = await at((van.lastGPSTimestamp + 5 * 3600) * 1000);
    assert.match(five.stdout, /\b5 h ago\b/);
    reg.verify();
  });

  test('a request with no recorded reply fails the test that made it, naming the request', async () => {
    await assert.rejects(
      runInProcess(['devices', 'get', '2005', '-o', 'json'], { env: TOKEN, http: reg }),
      (err: Error) => err.message.includes('GET /v2/devices/did/2005'),
    );
    reg.unexpected.length = 0;
  });
});

describe('in-process runs against the sandbox', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  test('the signed-in harness lists the sandbox units in-process, as the binary does', async () => {
    const spawned = await h.run(['devices', 'list', '-o', 'json']);
    const inProcess = await h.runIn(['devices', 'list', '-o', 'json']);
    assert.equal(inProcess.code, 0, inProcess.stderr);
    assert.equal(inProcess.stdout, spawned.stdout);
    assert.equal(inProcess.stderr, spawned.stderr);
  });

  test('a runtime error maps to its exit code in-process too: a unit that does not exist', async () => {
    const r = await h.runIn(['devices', 'get', '999999']);
    const spawned = await h.run(['devices', 'get', '999999']);
    assert.equal(r.code, spawned.code);
    assert.equal(r.stderr, spawned.stderr);
  });
});
