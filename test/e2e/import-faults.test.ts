/**
 * import under injected faults (5xx, drops before and AFTER the write): 200 devices
 * at concurrency 16 end as exactly the intended records, no duplicates, and a
 * re-run converges. Creates are reconciled by a lookup of the tracker ID.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

interface Row {
  row: number;
  key: string;
  outcome: string;
  id?: number;
  error?: string;
}
interface UnitRec {
  did: number;
  trackerID: string | null;
  groupMember: number[];
}

const COUNT = 200;
const SPEC = 'error=0.05,status=500|502|503,drop=0.03,drop-after=0.05,seed=3';

describe('import with fault injection (end to end)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  async function setFaults(spec: string): Promise<void> {
    const res = await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec }) });
    assert.equal(res.status, 200, await res.text());
  }
  const reportOf = (text: string): Row[] => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Row);

  test(`${COUNT} devices with ~13% faults: exactly the intended records, no duplicates; re-runs converge`, async (t) => {
    const keys = Array.from({ length: COUNT }, (_, i) => `FLT-${String(i).padStart(4, '0')}`);
    const csv = join(h.dir, 'fleet.csv');
    writeFileSync(csv, `name,tracker-id,type,groups\n${keys.map((k, i) => `Fault unit ${i},${k},TT8850,${i % 2 ? '101' : '102;103'}`).join('\n')}\n`);
    const env = { TRACKCTL_RETRIES: '2' };

    await setFaults(SPEC);
    h.sandbox.clearRequests();
    const first = await h.run(['devices', 'import', csv, '--concurrency', '16', '--continue-on-error'], { env, timeoutMs: 110_000 });
    const faulted = h.sandbox.requests.filter((r) => r.fault !== undefined);
    assert.ok([0, 7].includes(first.code), `exit 0 or 7: ${first.stderr.slice(-2000)}`);
    assert.ok(faulted.some((r) => r.method === 'POST' && r.fault === 'drop-after'), 'some creates were committed and their reply lost');
    assert.ok(faulted.length >= 20, `faults were injected (${faulted.length})`);
    const report = reportOf(first.stderr);
    t.diagnostic(`first run: ${faulted.length} faults injected; ${first.stderr.trim().split('\n').slice(-2).join(' / ')}`);
    assert.equal(report.length, COUNT);
    assert.deepEqual(report.map((r) => r.key), keys, 'one report record per row, in file order');
    const lost = faulted.filter((r) => r.method === 'POST' && r.fault === 'drop-after').map((r) => (r.body as { trackerID: string }).trackerID);
    for (const k of lost) assert.notEqual(report.find((r) => r.key === k)?.outcome, 'failed', `${k}: a lost reply is reconciled, not failed`);

    // Converge: a re-run with --skip-existing, faults still on.
    const second = await h.run(['devices', 'import', csv, '--concurrency', '16', '--skip-existing', '--continue-on-error'], { env, timeoutMs: 110_000 });
    assert.equal(second.code, 0, second.stderr.slice(-2000));

    await setFaults('none');
    h.sandbox.clearRequests();
    const third = await h.run(['devices', 'import', csv, '--skip-existing']);
    assert.equal(third.code, 0, third.stderr);
    assert.deepEqual(h.sandbox.requests.filter((r) => r.method !== 'GET').map((r) => r.path), [], 'nothing left to write');
    assert.ok(reportOf(third.stderr).every((r) => r.outcome === 'skipped'));

    const all = await h.json<UnitRec[]>(['devices', 'list']);
    const ours = all.filter((u) => u.trackerID?.startsWith('FLT-'));
    assert.equal(ours.length, COUNT, 'no duplicates, none missing');
    assert.deepEqual(ours.map((u) => u.trackerID).sort(), keys);
    for (const u of ours) {
      const i = Number(u.trackerID?.slice(4));
      assert.deepEqual([...u.groupMember].sort(), i % 2 ? [101] : [102, 103], `${u.trackerID} groups`);
    }
    const ids = new Map(reportOf(third.stderr).map((r) => [r.key, r.id]));
    for (const r of report.filter((x) => x.outcome === 'created')) assert.equal(ids.get(r.key), r.id, `${r.key}: the id reported on creation is the record's`);
  });
});
