/** apply and export against the sandbox: round trip, creation, idempotence, dry run, prune, updates, invalid files, partial failure. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

interface Row {
  phase: string;
  action: string;
  kind: string;
  key: string;
  details: string;
  outcome: string;
  error?: string;
}
interface Named {
  name: string;
  [k: string]: unknown;
}

const NEW_FLEET = `# yaml-language-server: $schema=./fleet.schema.json
apiVersion: trackctl/v1
kind: Fleet
groups:
  - name: East depot
    viewers: [ops@example.com]
  - name: Vans
devices:
  - trackerID: "490154203237518"
    name: Ford Transit 21
    type: FMB920
    simPhone: "+15550100"
    active: false
    groups: [Vans, East depot, Vans]
  - trackerID: "490154203237526"
    name: Ford Transit 22
    type: FMB920
    groups: [East depot]
sensors:
  - uniqueID: TAG-NEW001
    name: Cold room probe 2
    type: BLE-TH1
    groups: [East depot]
users:
  - email: ops@example.com
    name: Ops Desk
    type: dispatcher
  - email: rider@example.com
    name: Rider One
    type: trackedUser
    groups: [Vans]
shares:
  - name: Customer view 21
    device: "490154203237518"
    expires: 2035-12-31T00:00:00Z
  - name: East map
    group: East depot
  - name: Rider live
    user: rider@example.com
    expires: never
`;

function writes(h: Harness): string[] {
  return h.sandbox.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

function file(h: Harness, name: string, text: string): string {
  const path = join(h.dir, name);
  writeFileSync(path, text);
  return path;
}

async function apply(h: Harness, args: string[]): Promise<{ code: number; rows: Row[]; stderr: string }> {
  const r = await h.run(['apply', ...args, '-o', 'json']);
  let rows: Row[] = [];
  try {
    rows = JSON.parse(r.stdout) as Row[];
  } catch {
    // no JSON on a usage error: the caller checks the code
  }
  return { code: r.code, rows, stderr: r.stderr };
}

/** Applies and asserts the plan is empty and nothing was written. */
async function assertConverged(h: Harness, path: string, extra: string[] = []): Promise<void> {
  h.sandbox.clearRequests();
  const again = await apply(h, ['-f', path, ...extra]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(again.rows.filter((r) => r.outcome !== 'unchanged'), [], 'empty plan');
  assert.deepEqual(writes(h), [], 'no writes');
}

describe('apply and export', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });

  test('export → apply is a no-op (empty plan, zero writes); export is deterministic', async () => {
    const first = await h.run(['export']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^# trackctl export/);
    assert.match(first.stdout, /apiVersion: trackctl\/v1/);
    assert.match(first.stdout, /expires: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/, 'absolute expiries are ISO timestamps');
    assert.match(first.stdout, /name: Delivery 4471 \(expired\)/, 'the expired share is exported');
    assert.doesNotMatch(first.stdout, /\b(did|uid|gid|sid|lastGPSTimestamp)\b/, 'no server-generated fields');
    const second = await h.run(['export']);
    assert.equal(second.stdout, first.stdout);
    const path = file(h, 'export.yaml', first.stdout);
    await assertConverged(h, path);
    await assertConverged(h, path, ['--prune', '--yes']);

    const json = await h.run(['export', '-o', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout) as { devices: Array<{ trackerID: string }> };
    const keys = doc.devices.map((d) => d.trackerID);
    assert.deepEqual(keys, [...keys].sort());
    await assertConverged(h, file(h, 'export.json', json.stdout));
  });

  test('--dry-run prints the plan and sends no writes', async () => {
    const path = file(h, 'new.yaml', NEW_FLEET);
    h.sandbox.clearRequests();
    const r = await apply(h, ['-f', path, '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(writes(h), []);
    assert.ok(r.rows.length >= 10);
    assert.ok(r.rows.every((row) => row.outcome === 'planned'));
    const table = await h.run(['apply', '-f', path, '--dry-run']);
    assert.equal(table.stdout.split('\n')[0], 'ACTION\tKIND\tKEY\tDETAILS');
    assert.match(table.stderr, /Dry run: \d+ changes planned, nothing sent/);
  });

  test('a new file creates everything with its memberships and shares; the second run is empty', async () => {
    const path = file(h, 'new.yaml', NEW_FLEET);
    h.sandbox.clearRequests();
    const r = await apply(h, ['-f', path]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.rows.every((row) => row.outcome === 'ok'), JSON.stringify(r.rows));
    const sent = writes(h);
    assert.ok(sent.some((w) => /^PUT \/v2\/groups\/\d+\/groupMembers\/\d+,\d+,\d+$/.test(w)), `members batched on the group endpoint: ${sent.join('; ')}`);
    assert.ok(sent.some((w) => /^PUT \/v2\/groups\/\d+\/groupViewers\/\d+$/.test(w)));

    const groups = await h.json<Array<Named & { gid: number; groupMembers: number[]; groupViewers: number[] }>>(['groups', 'list']);
    const east = groups.find((g) => g.name === 'East depot');
    assert.ok(east);
    const devices = await h.json<Array<Named & { did: number; trackerID: string; isActive: number; groupMember: number[] }>>(['devices', 'list']);
    const t21 = devices.find((d) => d.trackerID === '490154203237518');
    assert.equal(t21?.isActive, 0);
    assert.ok(t21 && east.groupMembers.includes(t21.did));
    const users = await h.json<Array<Named & { uid: number; email: string; did?: number; groupMember: number[] }>>(['users', 'list']);
    const ops = users.find((u) => u.email === 'ops@example.com');
    assert.ok(ops && east.groupViewers.includes(ops.uid));
    const rider = users.find((u) => u.email === 'rider@example.com');
    const shares = await h.json<Array<Named & { did?: number; gid?: number; expiration: number | string }>>(['shares', 'list']);
    assert.equal(shares.find((s) => s.name === 'Customer view 21')?.expiration, Date.UTC(2035, 11, 31) / 1000);
    assert.equal(shares.find((s) => s.name === 'East map')?.gid, east.gid);
    assert.equal(shares.find((s) => s.name === 'Rider live')?.did, rider?.did);

    await assertConverged(h, path);
  });

  test('updates: rename, deactivate, membership moves, share expiry', async () => {
    const changed = NEW_FLEET.replace('name: Ford Transit 22', 'name: Ford Transit 22b\n    active: false')
      .replace('groups: [East depot]\nsensors', 'groups: [Vans]\nsensors')
      .replace('expires: 2035-12-31T00:00:00Z', 'expires: 2036-06-30T00:00:00Z');
    const path = file(h, 'changed.yaml', changed);
    h.sandbox.clearRequests();
    const r = await apply(h, ['-f', path]);
    assert.equal(r.code, 0, r.stderr);
    const got = r.rows.map((row) => `${row.action} ${row.kind} ${row.key}`).sort();
    assert.deepEqual(got, [
      'add-members group Vans',
      'remove-members group East depot',
      'update device 490154203237526',
      'update share Customer view 21',
    ]);
    const device = await h.json<Named & { isActive: number }>(['devices', 'get', '--tracker-id', '490154203237526']);
    assert.equal(device.name, 'Ford Transit 22b');
    assert.equal(device.isActive, 0);
    assert.ok(writes(h).some((w) => /^PATCH \/v2\/location-shares\//.test(w)));
    await assertConverged(h, path);
  });

  test('what cannot be changed is reported, not ignored', async () => {
    const path = file(h, 'type.yaml', NEW_FLEET.replace('name: Ford Transit 21\n    type: FMB920', 'name: Ford Transit 21\n    type: FMB140'));
    h.sandbox.clearRequests();
    const r = await apply(h, ['-f', path, '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    const note = r.rows.find((row) => row.action === 'cannot-change');
    assert.equal(note?.key, '490154203237518');
    assert.match(note?.details ?? '', /type: FMB920 → FMB140: recreate needed/);
    assert.match(r.stderr, /cannot be changed/);
    assert.deepEqual(writes(h), []);
  });

  test('invalid files: exit 2 listing every problem, nothing sent', async () => {
    const bad = `apiVersion: trackctl/v1
kind: Fleet
colour: red
devices:
  - trackerID: 357494414214035
    name: A
    type: T
  - trackerID: "111"
    name: ""
    type: T
  - trackerID: "111"
    name: B
    type: T
    active: yes
users:
  - email: not-an-address
    name: X
    type: boss
shares:
  - name: S
    device: "111"
    group: Vans
`;
    h.sandbox.clearRequests();
    const r = await h.run(['apply', '-f', file(h, 'bad.yaml', bad)]);
    assert.equal(r.code, 2, r.stderr);
    for (const mention of [
      'colour: unknown field', 'devices[0].trackerID: must be a string', 'devices[1].name: must not be empty', 'devices[2].trackerID: duplicate',
      'devices[2].active', 'users[0].email', 'users[0].type', 'shares[0]: needs exactly one target',
    ]) {
      assert.ok(r.stderr.includes(mention), `names ${mention}: ${r.stderr}`);
    }
    assert.match(r.stderr, /8 problems; nothing was changed/);
    assert.deepEqual(h.sandbox.requests, [], 'nothing is sent');

    const syntax = await h.run(['apply', '-f', file(h, 'syntax.yaml', 'groups: [\n')]);
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /line \d+:\d+/);

    const refs = await h.run(['apply', '-f', file(h, 'refs.yaml', 'apiVersion: trackctl/v1\nkind: Fleet\ndevices:\n  - trackerID: "999"\n    name: X\n    type: T\n    groups: [Nowhere]\n')]);
    assert.equal(refs.code, 2);
    assert.match(refs.stderr, /devices\[0\]\.groups\[0\]: group "Nowhere" is neither in the file nor in the account/);
    assert.deepEqual(writes(h), []);
  });
});

describe('apply --prune', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });

  test('deletes what the file does not declare, never the signed-in user; refuses without --yes off a terminal', async () => {
    const path = file(h, 'new.yaml', NEW_FLEET);
    h.sandbox.clearRequests();
    const refused = await h.run(['apply', '-f', path, '--prune']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refusing without --yes/);
    assert.deepEqual(writes(h), []);

    const r = await apply(h, ['-f', path, '--prune', '--yes']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.rows.some((row) => row.action === 'delete' && row.kind === 'device'));
    assert.ok(r.rows.some((row) => row.action === 'keep' && row.key === 'demo@example.com'));
    const users = await h.json<Array<{ email: string }>>(['users', 'list']);
    assert.deepEqual(users.map((u) => u.email).sort(), ['demo@example.com', 'ops@example.com', 'rider@example.com']);
    const devices = await h.json<Array<{ trackerID: string }>>(['devices', 'list']);
    assert.deepEqual(devices.map((d) => d.trackerID).sort(), ['490154203237518', '490154203237526']);
    const groups = await h.json<Named[]>(['groups', 'list']);
    assert.deepEqual(groups.map((g) => g.name).sort(), ['East depot', 'Vans']);
    const shares = await h.json<Named[]>(['shares', 'list']);
    assert.deepEqual(shares.map((s) => s.name).sort(), ['Customer view 21', 'East map', 'Rider live']);
    await assertConverged(h, path, ['--prune', '--yes']);
  });
});

describe('apply with failures', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });

  test('injected 5xx: exit 7 with each failed step reported; a re-run converges', async () => {
    const path = file(h, 'new.yaml', NEW_FLEET);
    const faults = await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec: 'error=0.1,status=500|502|503,seed=5' }) });
    assert.equal(faults.status, 200);
    const r = await apply(h, ['-f', path, '--concurrency', '4']);
    assert.equal(r.code, 7, r.stderr);
    const bad = r.rows.filter((row) => row.outcome === 'failed' || row.outcome === 'skipped');
    assert.ok(bad.length > 0);
    for (const row of bad) assert.ok(r.stderr.includes(`${row.action} ${row.kind} ${row.key}`), `stderr reports ${row.key}`);
    assert.ok(r.rows.some((row) => row.outcome === 'ok'), 'the rest went ahead');
    assert.match(r.stderr, /failed/);

    await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec: 'none' }) });
    const rerun = await apply(h, ['-f', path]);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.ok(rerun.rows.length > 0 && rerun.rows.every((row) => row.outcome === 'ok'));
    await assertConverged(h, path);
  });
});
