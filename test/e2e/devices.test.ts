import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { startHarness, type Harness } from '../helpers/cli.js';

interface UnitRec {
  did: number;
  name: string;
  trackerID: string | null;
  uniqueID: string | null;
  deviceType: string;
  deviceCategory: string;
  isActive: number;
  groupMember: number[];
}

for (const kind of ['devices', 'sensors'] as const) {
  const keyFlag = kind === 'devices' ? '--tracker-id' : '--unique-id';
  const keyField = kind === 'devices' ? 'trackerID' : 'uniqueID';
  const category = kind === 'devices' ? 'device' : 'sensor';

  describe(`${kind} (end to end against the sandbox)`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ inProcess: true });
    });
    after(async () => h.close());

    test('list -o json prints the records of result, in order, all of this category', async () => {
      const units = await h.json<UnitRec[]>([kind, 'list']);
      assert.ok(units.length >= 3);
      assert.ok(units.every((u) => u.deviceCategory === category));
      const ids = units.map((u) => u.did);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      const log = h.sandbox.requests.filter((r) => r.path === `/v2/${kind}/`);
      assert.ok(log.at(-1)?.auth.bearer, 'the /v2/ request carries the bearer token');
    });

    test('list filters: --active/--inactive and --group', async () => {
      const all = await h.json<UnitRec[]>([kind, 'list']);
      const active = await h.json<UnitRec[]>([kind, 'list', '--active']);
      const inactive = await h.json<UnitRec[]>([kind, 'list', '--inactive']);
      assert.equal(active.length + inactive.length, all.length);
      assert.ok(active.every((u) => u.isActive === 1));
      const gid = all.find((u) => u.groupMember.length > 0)?.groupMember[0];
      assert.ok(gid !== undefined);
      const inGroup = await h.json<UnitRec[]>([kind, 'list', '--group', String(gid)]);
      assert.ok(inGroup.length > 0 && inGroup.every((u) => u.groupMember.includes(gid)));
      const both = await h.run([kind, 'list', '--active', '--inactive']);
      assert.equal(both.code, 2);
    });

    test('list in ndjson, csv (parsed back) and plain TSV without a TTY', async () => {
      const nd = await h.run([kind, 'list', '-o', 'ndjson']);
      assert.equal(nd.code, 0);
      const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as UnitRec);
      assert.ok(lines.length >= 3 && lines.every((u) => typeof u.did === 'number'));

      const csv = await h.run([kind, 'list', '-o', 'csv', '--fields', `did,name,${keyField}`]);
      assert.equal(csv.code, 0);
      const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
      assert.deepEqual(Object.keys(rows[0] ?? {}), ['did', 'name', keyField]);
      assert.equal(rows.length, lines.length);

      const yaml = await h.run([kind, 'list', '-o', 'yaml']);
      assert.equal(yaml.code, 0, yaml.stderr);
      assert.deepEqual((parseYaml(yaml.stdout) as UnitRec[]).map((u) => u.did), lines.map((u) => u.did));

      const table = await h.run([kind, 'list']);
      assert.equal(table.code, 0);
      assert.doesNotMatch(table.stdout, /\u001b\[/, 'no escape codes without a TTY');
      const [header, first] = table.stdout.split('\n');
      assert.match(header ?? '', /^DID\tNAME\t/);
      assert.match(first ?? '', /^\d+\t/);
      const bare = await h.run([kind, 'list', '--no-header']);
      assert.match(bare.stdout, /^\d+\t/);
    });

    test('create, get by did, unique ID and tracker ID, update, delete', async () => {
      const key = `${kind === 'devices' ? '35' : 'SN-'}${Date.now() % 1e13}`;
      const created = await h.json<UnitRec>([kind, 'create', '--name', 'Test unit', keyFlag, key, '--type', 'TT8850', '--sim-phone', '+15551230000']);
      assert.equal(created.name, 'Test unit');
      assert.equal(created[keyField], key);
      assert.equal(created.deviceCategory, category);
      const post = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/v2/${kind}/`).at(-1);
      assert.deepEqual(post?.body, { name: 'Test unit', deviceType: 'TT8850', [keyField]: key, simPhoneNumber: '+15551230000' });

      const byDid = await h.json<UnitRec>([kind, 'get', String(created.did)]);
      assert.equal(byDid.did, created.did);
      const flag = kind === 'devices' ? '--tracker-id' : '--unique-id';
      const byKey = await h.json<UnitRec>([kind, 'get', flag, key]);
      assert.equal(byKey.did, created.did);

      const updated = await h.json<UnitRec>([kind, 'update', String(created.did), '--name', 'Renamed', '--inactive', '--add-group', '101,102']);
      assert.equal(updated.name, 'Renamed');
      assert.equal(updated.isActive, 0);
      assert.deepEqual([...updated.groupMember].sort(), [101, 102]);
      const put = h.sandbox.requests.filter((r) => r.method === 'PUT').at(-1);
      assert.equal(put?.path, `/v2/${kind}/did/${created.did}/groupMember/101,102`);
      const removed = await h.json<UnitRec>([kind, 'update', String(created.did), '--remove-group', '101', '--active']);
      assert.deepEqual(removed.groupMember, [102]);
      assert.equal(removed.isActive, 1);
      // A change that fails after another was applied says what was: the name changed, the group did not exist.
      const half = await h.run([kind, 'update', String(created.did), '--name', 'Half done', '--add-group', '999']);
      assert.equal(half.code, 4, half.stderr);
      assert.match(half.stderr, /999.*\(applied before it: the name\)/);
      assert.equal((await h.json<UnitRec>([kind, 'get', String(created.did)])).name, 'Half done');

      const del = await h.run([kind, 'delete', String(created.did), '--yes']);
      assert.equal(del.code, 0, del.stderr);
      const gone = await h.run([kind, 'get', String(created.did)]);
      assert.equal(gone.code, 4);
    });

    test('--raw prints the service body unchanged', async () => {
      const raw = await h.run([kind, 'list', '--raw']);
      const body = JSON.parse(raw.stdout) as { success: string; result: Record<string, UnitRec>; resultCount: number };
      assert.equal(typeof body.success, 'string');
      assert.equal(Object.keys(body.result).length, body.resultCount);
    });

    test('bad input is exit 2 and sends nothing', async () => {
      const cases: string[][] = [
        [kind, 'get', 'abc'],
        [kind, 'get', '0'],
        [kind, 'get', '-5'],
        [kind, 'get'],
        [kind, 'get', '12', keyFlag, 'X1'],
        [kind, 'get', keyFlag, 'has\ttab'], // keys are opaque: only control characters, blank or too long are refused
        [kind, 'create', '--name', 'X', keyFlag, 'K1'],
        [kind, 'create', '--name', '', keyFlag, 'K1', '--type', 'T'],
        [kind, 'create', '--name', 'X', keyFlag, 'a\u0007b', '--type', 'T'],
        [kind, 'create', '--name', 'X', keyFlag, 'K1', '--type', 'T', '--sim-phone', 'call me'],
        [kind, 'update', '12'],
        [kind, 'update', '12', '--add-group', '1,x'],
        [kind, 'update', '12', '--add-group', '3', '--remove-group', '3'],
        [kind, 'delete', '12', 'nope', '--yes'],
        [kind, 'delete', '12'],
        [kind, 'list', '--group', 'x'],
        [kind, 'list', '-o', 'xml'],
        [kind, 'list', '--fields', 'did,nosuchfield', '-o', 'json'],
      ];
      for (const args of cases) {
        h.sandbox.clearRequests();
        const r = await h.run(args);
        assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}: ${r.stderr}`);
        assert.match(r.stderr, /error/i);
        assert.equal(r.stdout, '');
        const writes = h.sandbox.requests.filter((q) => q.method !== 'GET' || q.path.includes(`/${kind}/`));
        assert.deepEqual(writes, [], `${args.join(' ')} sent nothing about ${kind}`);
      }
    });

    test('create without a terminal names every missing flag at once (exit 2, nothing sent)', async () => {
      await h.expectUsage([kind, 'create'], `missing --name, ${keyFlag}, --type (no terminal to ask on)`);
      await h.expectUsage([kind, 'create', keyFlag, 'K1'], 'missing --name, --type');
      // A bad value that was given is named before the missing ones.
      await h.expectUsage([kind, 'create', keyFlag, 'x'.repeat(129)], 'longer than the limit of 128');
    });

    test('unknown id is exit 4; bulk delete continues past failures and exits 7', async () => {
      const missing = await h.run([kind, 'get', '999999']);
      assert.equal(missing.code, 4);
      assert.match(missing.stderr, /not found/i);

      const ids: number[] = [];
      for (const n of [1, 2]) {
        const u = await h.json<UnitRec>([kind, 'create', '--name', `Bulk ${n}`, keyFlag, `BULK${n}${Date.now() % 1e9}`, '--type', 'T1']);
        ids.push(u.did);
      }
      const r = await h.run([kind, 'delete', String(ids[0]), '999999', String(ids[1]), '--yes', '-o', 'json']);
      assert.equal(r.code, 7, r.stderr);
      const report = JSON.parse(r.stdout) as Array<{ id: number; ok: boolean; error?: string }>;
      assert.deepEqual(report.map((o) => [o.id, o.ok]), [[ids[0], true], [999999, false], [ids[1], true]]);
      assert.match(r.stderr, /999999/);
      for (const id of ids) assert.equal((await h.run([kind, 'get', String(id)])).code, 4);
    });
  });
}
