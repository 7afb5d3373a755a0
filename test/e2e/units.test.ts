/** units: GET /all-units/ (session cookie) as one list of every unit and user, each with its category (a unit's deviceCategory, else its collection). */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseCsv } from 'csv-parse/sync';
import { startHarness, type Harness } from '../helpers/cli.js';

type Category = 'device' | 'sensor' | 'trackedUser' | 'dispatcher';
interface UnitRec {
  category: Category;
  did?: number;
  uid?: number;
  name: string;
  lastBatteryLevel?: number;
  lastGPSTimestamp?: number;
}
interface AllUnitsBody {
  success: string;
  devices: Record<string, { did: number; deviceCategory?: string }>;
  sensors: Record<string, { did: number }>;
  trackedUsers: Record<string, { uid: number }>;
  dispatchers: Record<string, { uid: number }>;
}

describe('units', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });


  test('one GET /all-units/ with the cookie; every record of the four collections with its category', async () => {
    h.sandbox.clearRequests();
    const units = await h.json<UnitRec[]>(['units']);
    assert.deepEqual(h.sent(), ['GET /all-units/']);
    assert.equal(h.sandbox.requests[0]?.auth.cookie, true);
    const raw = await h.run(['units', '--raw']);
    assert.equal(raw.code, 0, raw.stderr);
    const body = JSON.parse(raw.stdout) as AllUnitsBody;
    // A unit's category is its deviceCategory: a tracked user's phone, listed among the devices, is a trackedUser unit.
    const phones = Object.values(body.devices).filter((u) => u.deviceCategory === 'trackedUser').length;
    assert.ok(phones > 0, 'the sandbox lists tracked users\' phones among the devices');
    const expected: Record<Category, number> = {
      device: Object.keys(body.devices).length - phones,
      sensor: Object.keys(body.sensors).length,
      trackedUser: Object.keys(body.trackedUsers).length + phones,
      dispatcher: Object.keys(body.dispatchers).length,
    };
    for (const c of Object.keys(expected) as Category[]) {
      assert.ok(expected[c] > 0, `the demo fleet has ${c} records`);
      assert.equal(units.filter((u) => u.category === c).length, expected[c], c);
    }
    assert.equal(units.length, Object.values(expected).reduce((a, b) => a + b, 0));
    for (const u of units) {
      if (u.category === 'device' || u.category === 'sensor') assert.equal(typeof u.did, 'number');
      else assert.ok(typeof u.uid === 'number' || (u.category === 'trackedUser' && typeof u.did === 'number'), JSON.stringify(u));
    }
    const first = units.find((u) => u.category === 'device');
    const sentRecord = first && body.devices[String(first.did)];
    assert.deepEqual(first, { category: 'device', ...sentRecord }, 'the record as sent, plus category');
  });

  test('--category keeps one category', async () => {
    for (const c of ['device', 'sensor', 'trackedUser', 'dispatcher'] as const) {
      const units = await h.json<UnitRec[]>(['units', '--category', c]);
      assert.ok(units.length > 0 && units.every((u) => u.category === c), c);
    }
  });

  test('--stale keeps only units whose last report is older than the threshold', async () => {
    const all = await h.json<UnitRec[]>(['units']);
    const cutoff = Date.now() / 1000 - 86400;
    const stale = await h.json<UnitRec[]>(['units', '--stale', '1d']);
    assert.ok(stale.length > 0, 'the demo fleet has stale units');
    for (const u of stale) {
      assert.equal(typeof u.did, 'number', 'users do not report, so they are never stale');
      assert.ok((u.lastGPSTimestamp ?? 0) < cutoff + 5, `${u.name} is stale`);
    }
    const expected = all.filter((u) => u.did !== undefined && (u.lastGPSTimestamp ?? 0) < cutoff - 60).map((u) => u.did);
    for (const did of expected) assert.ok(stale.some((u) => u.did === did), `unit ${did} is listed`);
    const staleSensors = await h.json<UnitRec[]>(['units', '--stale', '24h', '--category', 'sensor']);
    assert.ok(staleSensors.every((u) => u.category === 'sensor'));
  });

  test('--low-battery keeps units below the percentage', async () => {
    const low = await h.json<UnitRec[]>(['units', '--low-battery', '20']);
    assert.ok(low.length > 0, 'the demo fleet has low batteries');
    for (const u of low) assert.ok(typeof u.lastBatteryLevel === 'number' && u.lastBatteryLevel < 20, u.name);
    const all = await h.json<UnitRec[]>(['units', '--low-battery', '100']);
    assert.ok(all.length > low.length);
  });

  test('NDJSON, CSV and the piped table', async () => {
    const nd = await h.run(['units', '--category', 'device', '-o', 'ndjson']);
    assert.equal(nd.code, 0, nd.stderr);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as UnitRec);
    assert.ok(lines.length > 0 && lines.every((u) => u.category === 'device'));
    const csv = await h.run(['units', '-o', 'csv']);
    assert.equal(csv.code, 0, csv.stderr);
    const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(Object.keys(rows[0] ?? {}).slice(0, 4), ['category', 'id', 'unit', 'name']);
    assert.ok(rows.some((r) => r.category === 'dispatcher' && /^\d+$/.test(r.id ?? '')), 'users show their uid as id');
    const t = await h.run(['units', '--category', 'sensor']);
    assert.equal(t.code, 0, t.stderr);
    const [header, ...tableRows] = t.stdout.trim().split('\n');
    assert.deepEqual(header?.split('\t'), ['CATEGORY', 'ID', 'UNIT', 'NAME', 'TYPE', 'ACTIVE', 'BATTERY', 'LAST REPORT', 'GROUPS']);
    assert.ok(tableRows.length > 0 && tableRows.every((l) => l.startsWith('sensor\t')));
  });

  test("a tracked user: ID is the user's uid, UNIT its device's did; a unit command given the uid names the did (exit 4)", async () => {
    const users = await h.json<Array<{ uid: number; did?: number; name: string; userType: string }>>(['users', 'list']);
    const maria = users.find((u) => u.userType === 'trackedUser' && typeof u.did === 'number');
    assert.ok(maria, 'the demo account has a tracked user with a device');
    const t = await h.run(['units', '--category', 'trackedUser']);
    assert.equal(t.code, 0, t.stderr);
    const row = t.stdout.split('\n').find((l) => l.startsWith(`trackedUser\t${maria.uid}\t`));
    assert.equal(row?.split('\t')[2], String(maria.did), t.stdout);
    // JSON prints the records as sent: one request, no UNIT field added.
    h.sandbox.clearRequests();
    await h.json(['units', '--category', 'trackedUser']);
    assert.deepEqual(h.sent(), ['GET /all-units/']);

    for (const args of [['history', String(maria.uid)], ['report', 'trips', String(maria.uid)]]) {
      const r = await h.run(args);
      assert.equal(r.code, 4, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`${maria.uid}.*user id of tracked user "${maria.name}".*use ${maria.did}`));
    }
    const own = await h.run(['history', String(maria.did), '-o', 'ndjson']);
    assert.equal(own.code, 0, own.stderr);
    const dispatcher = users.find((u) => u.userType === 'dispatcher') as { uid: number };
    const d = await h.run(['history', String(dispatcher.uid)]);
    assert.equal(d.code, 4);
    assert.match(d.stderr, /dispatcher .* who has no unit/);
  });

  test('the summary line is for terminals only: none on piped stderr', async () => {
    const r = await h.run(['units']);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
  });

  test('bad filters → 2 and nothing sent', async () => {
    await h.expectUsage(['units', '--category', 'vehicle'], 'vehicle');
    await h.expectUsage(['units', '--stale', 'soon'], '"soon"');
    await h.expectUsage(['units', '--stale', '0'], '"0"');
    await h.expectUsage(['units', '--low-battery', 'low'], '"low"');
    await h.expectUsage(['units', '--low-battery', '150'], '"150"');
  });

  test('--help describes the options with examples', async () => {
    const r = await h.run(['units', '--help']);
    assert.equal(r.code, 0);
    for (const flag of ['--category', '--stale', '--low-battery']) assert.ok(r.stdout.includes(flag), flag);
    assert.match(r.stdout, /Examples:\n {2}\$ trackctl units/);
  });
});
