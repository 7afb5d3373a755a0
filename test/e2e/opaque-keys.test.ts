/**
 * uniqueID and trackerID are opaque strings: a serial number with a space, '/', '#',
 * '%' or a non-ASCII letter round-trips through flags, import files and fleet files
 * against the sandbox, percent-encoded in paths and unchanged in bodies. Only an
 * empty key, control characters or more than KEY_MAX_LENGTH characters are refused,
 * with exit 2 before any request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/cli.js';
import { KEY_MAX_LENGTH } from '../../src/api/keys.js';

interface UnitRec {
  did: number;
  trackerID: string | null;
  uniqueID: string | null;
}

const KEYS = ['SN 0042/A#7%', 'Ünïcødé-序列号-ß', 'a/b/c', '100%', '#1', ' padded '];

describe('opaque uniqueID and trackerID (end to end against the sandbox)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  for (const [kind, flag, field] of [
    ['devices', '--tracker-id', 'trackerID'],
    ['sensors', '--unique-id', 'uniqueID'],
  ] as const) {
    for (const key of KEYS) {
      test(`${kind}: create ${flag} ${JSON.stringify(key)}, then get by it`, async () => {
        h.sandbox.clearRequests();
        const created = await h.json<UnitRec>([kind, 'create', '--name', `Key ${key}`, flag, key, '--type', 'TT8850']);
        assert.equal(created[field], key, 'the service stored the key unchanged');
        const post = h.sandbox.requests.find((r) => r.method === 'POST');
        assert.equal((post?.body as Record<string, unknown>)[field], key, 'the body carries the key unchanged');

        h.sandbox.clearRequests();
        const got = await h.json<UnitRec>([kind, 'get', flag, key]);
        assert.equal(got.did, created.did);
        assert.deepEqual(h.sent(), [`GET /v2/${kind}/${field}/${encodeURIComponent(key)}`], 'the key is one percent-encoded path segment');
      });
    }
  }

  test('devices import: CSV keys with spaces, commas (quoted), slashes and non-ASCII', async () => {
    const csv = h.file('keys.csv', ['name,tracker-id,type', 'Imp 1,"SN 9,1/ü#%",TT8850', 'Imp 2,Ωmega 2,TT8850'].join('\n'));
    const report = await h.json<Array<{ key: string; outcome: string; id: number }>>(['devices', 'import', csv]);
    assert.deepEqual(report.map((r) => [r.key, r.outcome]), [['SN 9,1/ü#%', 'created'], ['Ωmega 2', 'created']]);
    const again = await h.json<Array<{ outcome: string }>>(['devices', 'import', csv, '--skip-existing']);
    assert.deepEqual(again.map((r) => r.outcome), ['skipped', 'skipped'], 're-run finds each by its key');
    const got = await h.json<UnitRec>(['devices', 'get', '--tracker-id', 'SN 9,1/ü#%']);
    assert.equal(got.did, report[0]!.id);
  });

  test('apply: a fleet file with such keys creates, then has nothing to change', async () => {
    const fleet = h.file('fleet.yaml', [
      'apiVersion: trackctl/v1',
      'kind: Fleet',
      'devices:',
      '  - trackerID: "Fleet 7/#%-é"',
      '    name: Fleet seven',
      '    type: TT8850',
      'sensors:',
      '  - uniqueID: "TAG 1/ø"',
      '    name: Tag one',
      '    type: TT8850',
    ].join('\n'));
    const first = await h.run(['apply', '-f', fleet, '--yes']);
    assert.equal(first.code, 0, first.stderr);
    const device = await h.json<UnitRec>(['devices', 'get', '--tracker-id', 'Fleet 7/#%-é']);
    assert.equal(device.trackerID, 'Fleet 7/#%-é');
    const sensor = await h.json<UnitRec>(['sensors', 'get', '--unique-id', 'TAG 1/ø']);
    assert.equal(sensor.uniqueID, 'TAG 1/ø');
    h.sandbox.clearRequests();
    const second = await h.run(['apply', '-f', fleet, '--dry-run']);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(h.sent().every((s) => s.startsWith('GET ')), `a second plan only reads: ${h.sent().join(', ')}`);
    assert.doesNotMatch(second.stdout + second.stderr, /create/i);
  });

  test('refused before any request: empty, blank, control characters, too long', async () => {
    await h.expectUsage(['devices', 'get', '--tracker-id', ''], 'must not be empty');
    await h.expectUsage(['devices', 'get', '--tracker-id', '   '], 'must not be empty');
    await h.expectUsage(['sensors', 'create', '--name', 'x', '--unique-id', 'a\tb', '--type', 'T'], 'control characters');
    await h.expectUsage(['devices', 'create', '--name', 'x', '--tracker-id', 'a\u0085b', '--type', 'T'], 'control characters');
    await h.expectUsage(['devices', 'get', '--tracker-id', 'x'.repeat(KEY_MAX_LENGTH + 1)], `limit of ${KEY_MAX_LENGTH}`);
    const longest = 'é'.repeat(KEY_MAX_LENGTH);
    const created = await h.json<UnitRec>(['devices', 'create', '--name', 'Longest', '--tracker-id', longest, '--type', 'TT8850']);
    assert.equal(created.trackerID, longest, `${KEY_MAX_LENGTH} characters are accepted`);
  });
});
