/** devices|sensors|users import: formats, stdin, groups, --skip-existing, --dry-run, the report, exit 7. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

interface Row {
  row: number;
  key: string;
  outcome: string;
  id?: number;
  groups?: number[];
  viewerGroups?: number[];
  error?: string;
}
interface UnitRec {
  did: number;
  name: string;
  trackerID: string | null;
  uniqueID: string | null;
  deviceType: string;
  simPhoneNumber?: string;
  groupMember: number[];
}
interface UserRec {
  uid: number;
  email: string;
  userType: string;
  groupMember: number[];
  groupViewer: number[];
}

/** The NDJSON report lines among stderr's lines (the summary line is not JSON). */
function reportOf(text: string): Row[] {
  return text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Row);
}

describe('import (end to end against the sandbox)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  const file = (name: string, text: string): string => h.file(name, text);
  const writes = () => h.sandbox.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  const posts = () => h.sandbox.requests.filter((r) => r.method === 'POST');
  async function run(args: string[], input?: string) {
    h.sandbox.clearRequests();
    return h.run(args, input === undefined ? {} : { input });
  }
  const devices = () => h.json<UnitRec[]>(['devices', 'list']);

  test('devices from a flag-style CSV: created with SIM and groups; report on stderr, stdout empty', async () => {
    const csv = file('d.csv', 'name,tracker-id,type,sim-phone,groups\nVan A1,A1-0001,TT8850,+15551230001,101;102\n"Van, ""A2""",A1-0002,TT8850,,\nVan A3,A1-0003,TT8850,,103 101\n');
    const r = await run(['devices', 'import', csv]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const report = reportOf(r.stderr);
    assert.deepEqual(report.map((x) => [x.row, x.key, x.outcome]), [[2, 'A1-0001', 'created'], [3, 'A1-0002', 'created'], [4, 'A1-0003', 'created']]);
    assert.match(r.stderr, /3 rows: 3 created/);
    const bodies = posts().map((p) => p.body as Record<string, unknown>);
    assert.equal(bodies.length, 3);
    assert.deepEqual(bodies.find((b) => b.trackerID === 'A1-0001'), { name: 'Van A1', trackerID: 'A1-0001', deviceType: 'TT8850', simPhoneNumber: '+15551230001' });
    assert.equal(bodies.find((b) => b.trackerID === 'A1-0002')?.simPhoneNumber, undefined, 'an empty cell is not sent');
    const all = await devices();
    const got = (k: string) => all.find((u) => u.trackerID === k);
    assert.deepEqual(got('A1-0001')?.groupMember, [101, 102]);
    assert.equal(got('A1-0002')?.name, 'Van, "A2"');
    assert.deepEqual(got('A1-0003')?.groupMember.sort(), [101, 103]);
    assert.equal(report[0]?.id, got('A1-0001')?.did);
  });

  test('devices from a field-style CSV (trackerID, deviceType, simPhoneNumber, groupMember), CRLF and BOM', async () => {
    const csv = file('f.csv', '\uFEFFname,trackerID,deviceType,simPhoneNumber,groupMember\r\nVan B1,B1-0001,GV300,+15551230002,103\r\n');
    const r = await run(['devices', 'import', csv]);
    assert.equal(r.code, 0, r.stderr);
    const u = (await devices()).find((d) => d.trackerID === 'B1-0001');
    assert.equal(u?.deviceType, 'GV300');
    assert.deepEqual(u?.groupMember, [103]);
  });

  test('sensors from NDJSON and from a JSON array (line numbers of each element)', async () => {
    const nd = file('s.ndjson', '{"name":"Tag 1","unique-id":"SN-C1","type":"TAG-T1"}\n\n{"name":"Tag 2","uniqueID":"SN-C2","deviceType":"TAG-T1","groups":[101]}\n');
    const r1 = await run(['sensors', 'import', nd]);
    assert.equal(r1.code, 0, r1.stderr);
    assert.deepEqual(reportOf(r1.stderr).map((x) => x.row), [1, 3]);
    const js = file('s.json', '[\n  {"name": "Tag 3", "uniqueID": "SN-C3", "type": "TAG-T1"},\n  {\n    "name": "Tag 4",\n    "uniqueID": "SN-C4",\n    "type": "TAG-T1",\n    "groupMember": ["102"]\n  }\n]\n');
    const r2 = await run(['sensors', 'import', js]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.deepEqual(reportOf(r2.stderr).map((x) => [x.row, x.outcome]), [[2, 'created'], [3, 'created']]);
    const sensors = await h.json<UnitRec[]>(['sensors', 'list']);
    for (const k of ['SN-C1', 'SN-C2', 'SN-C3', 'SN-C4']) assert.ok(sensors.some((s) => s.uniqueID === k), k);
    assert.deepEqual(sensors.find((s) => s.uniqueID === 'SN-C4')?.groupMember, [102]);
  });

  test('stdin (-): the format is sniffed for CSV, NDJSON and JSON; --format overrides', async () => {
    const csv = await run(['devices', 'import', '-'], 'name,tracker-id,type\nStdin 1,D1-0001,TT8850\n');
    assert.equal(csv.code, 0, csv.stderr);
    const nd = await run(['devices', 'import', '-'], '{"name":"Stdin 2","trackerID":"D1-0002","type":"TT8850"}\n');
    assert.equal(nd.code, 0, nd.stderr);
    const js = await run(['devices', 'import', '-'], '[{"name":"Stdin 3","trackerID":"D1-0003","type":"TT8850"}]');
    assert.equal(js.code, 0, js.stderr);
    const forced = await run(['devices', 'import', '-', '--format', 'ndjson'], '{"name":"Stdin 4","trackerID":"D1-0004","type":"TT8850"}');
    assert.equal(forced.code, 0, forced.stderr);
    const keys = (await devices()).map((d) => d.trackerID);
    for (const k of ['D1-0001', 'D1-0002', 'D1-0003', 'D1-0004']) assert.ok(keys.includes(k), k);
  });

  test('users from CSV (flag- and field-style) with member and viewer groups', async () => {
    const csv = file('u.csv', 'name,email,type,sim-phone,groups,viewer-groups\nAna Import,ana.import@example.com,trackedUser,+15551230003,101,102;103\nBen Import,ben.import@example.com,Dispatcher,,,\n');
    const r = await run(['users', 'import', csv]);
    assert.equal(r.code, 0, r.stderr);
    const js = await run(['users', 'import', '-'], '[{"name":"Cy Import","email":"cy.import@example.com","userType":"dispatcher","simPhoneNumber":"+15551230004","groupMember":[103]}]');
    assert.equal(js.code, 0, js.stderr);
    const users = await h.json<UserRec[]>(['users', 'list']);
    const ana = users.find((u) => u.email === 'ana.import@example.com');
    assert.equal(ana?.userType, 'trackedUser');
    assert.deepEqual(ana?.groupMember, [101]);
    assert.deepEqual(ana?.groupViewer.sort(), [102, 103]);
    assert.equal(users.find((u) => u.email === 'ben.import@example.com')?.userType, 'dispatcher');
    assert.deepEqual(users.find((u) => u.email === 'cy.import@example.com')?.groupMember, [103]);
  });

  test('--skip-existing: a re-run sends no POST, reports skipped, adds only missing groups', async () => {
    const csv = file('e.csv', 'name,tracker-id,type,groups\nVan E1,E1-0001,TT8850,101\nVan E2,E1-0002,TT8850,\n');
    assert.equal((await run(['devices', 'import', csv])).code, 0);
    const again = file('e2.csv', 'name,tracker-id,type,groups\nVan E1,E1-0001,TT8850,101;102\nVan E2,E1-0002,TT8850,\n');
    const r = await run(['devices', 'import', again, '--skip-existing']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(posts().length, 0, 'nothing is created twice');
    const e1 = (await devices()).find((d) => d.trackerID === 'E1-0001');
    assert.deepEqual(writes(), [`PUT /v2/devices/did/${e1?.did}/groupMember/102`]);
    assert.deepEqual(reportOf(r.stderr).map((x) => [x.key, x.outcome, x.groups]), [['E1-0001', 'skipped', [102]], ['E1-0002', 'skipped', undefined]]);
    assert.deepEqual(e1?.groupMember, [101, 102]);

    const third = await run(['devices', 'import', again, '--skip-existing']);
    assert.equal(third.code, 0);
    assert.deepEqual(writes(), [], 'converged: nothing left to write');

    const users = await run(['users', 'import', '-', '--skip-existing'], 'name,email,type\nAna Again,ANA.IMPORT@example.com,trackedUser\n');
    assert.equal(users.code, 0, users.stderr);
    assert.deepEqual(writes(), [], 'users match by e-mail, case-insensitively');
    assert.equal(reportOf(users.stderr)[0]?.outcome, 'skipped');
  });

  test('--dry-run reads but writes nothing: would-create, skipped, would-fail (exit 7)', async () => {
    const csv = file('dry.csv', 'name,tracker-id,type,groups\nVan E1,E1-0001,TT8850,103\nVan F1,F1-0001,TT8850,101\n');
    const r = await run(['devices', 'import', csv, '--dry-run', '--skip-existing']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(writes(), []);
    assert.deepEqual(reportOf(r.stderr).map((x) => [x.key, x.outcome, x.groups]), [['E1-0001', 'skipped', [103]], ['F1-0001', 'would-create', [101]]]);
    assert.match(r.stderr, /dry run/);
    const noSkip = await run(['devices', 'import', csv, '--dry-run']);
    assert.equal(noSkip.code, 7);
    assert.deepEqual(writes(), []);
    assert.deepEqual(reportOf(noSkip.stderr).map((x) => x.outcome), ['would-fail', 'would-create']);
    assert.ok(!(await devices()).some((d) => d.trackerID === 'F1-0001'));
  });

  test('--report FILE holds the per-row NDJSON; -o json puts the report on stdout', async () => {
    const report = join(h.dir, 'report.ndjson');
    const csv = file('g.csv', 'name,tracker-id,type\nVan G1,G1-0001,TT8850\nVan G2,G1-0002,TT8850\n');
    const r = await run(['devices', 'import', csv, '--report', report]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(reportOf(r.stderr).length, 0, 'not on stderr as well');
    const rows = readFileSync(report, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row);
    const all = await devices();
    assert.deepEqual(rows, [
      { row: 2, key: 'G1-0001', outcome: 'created', id: all.find((d) => d.trackerID === 'G1-0001')?.did },
      { row: 3, key: 'G1-0002', outcome: 'created', id: all.find((d) => d.trackerID === 'G1-0002')?.did },
    ]);
    const j = await run(['devices', 'import', csv, '--skip-existing', '-o', 'json']);
    assert.equal(j.code, 0, j.stderr);
    const out = JSON.parse(j.stdout) as Row[];
    assert.deepEqual(out.map((x) => x.outcome), ['skipped', 'skipped']);
  });

  test('exit 7: failures reported per row; without --continue-on-error the rest is not attempted', async () => {
    const csv = file('p.csv', 'name,tracker-id,type\nVan P1,G1-0001,TT8850\nVan P2,P1-0002,TT8850\nVan P3,P1-0003,TT8850\n');
    const stop = await run(['devices', 'import', csv, '--concurrency', '1']);
    assert.equal(stop.code, 7, stop.stderr);
    assert.deepEqual(reportOf(stop.stderr).map((x) => x.outcome), ['failed', 'not-attempted', 'not-attempted']);
    assert.match(reportOf(stop.stderr)[0]?.error ?? '', /already exists \(409\)/);
    assert.equal(posts().length, 1);
    const cont = await run(['devices', 'import', csv, '--continue-on-error']);
    assert.equal(cont.code, 7, cont.stderr);
    assert.deepEqual(reportOf(cont.stderr).map((x) => x.outcome), ['failed', 'created', 'created']);
    assert.match(cont.stderr, /1 of 3 rows failed/);
  });

  test('--concurrency is checked: 1–64', async () => {
    const csv = file('c.csv', 'name,tracker-id,type\nX,C1-0001,T\n');
    for (const bad of ['0', '65', 'x']) {
      const r = await run(['devices', 'import', csv, '--concurrency', bad]);
      assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
      assert.equal(h.sandbox.requests.length, 0);
    }
  });
});
