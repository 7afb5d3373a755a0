/**
 * The one exit rule of every multi-unit command (history, report, watch, bulk deletes):
 * every selected unit failed the same way -> that failure's code (4: not found); some
 * failed -> 7. Each failure is printed once, and nothing (not a table header) reaches
 * stdout when nothing was found.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, startHarness, type Harness, type RunResult } from '../helpers/cli.js';

const FROM = String(Math.floor(Date.now() / 1000) - 6 * 3600);

interface Row {
  args: string[];
  code: number;
  /** Ids that failed: each on exactly one line of stderr. */
  failed: string[];
  /** stdout is empty. */
  empty: boolean;
}

const TABLE: Row[] = [
  { args: ['history', '999998', '999999'], code: 4, failed: ['999998', '999999'], empty: true },
  { args: ['history', '999999'], code: 4, failed: ['999999'], empty: true },
  { args: ['history', '2004', '999999', '--from', FROM], code: 7, failed: ['999999'], empty: false },
  { args: ['report', 'trips', '999998', '999999'], code: 4, failed: ['999998', '999999'], empty: true },
  { args: ['report', 'trips', '9999'], code: 4, failed: ['9999'], empty: true },
  { args: ['report', 'stops', '2004', '999999', '--from', FROM], code: 7, failed: ['999999'], empty: false },
  { args: ['watch', '999998', '999999', '-o', 'ndjson'], code: 4, failed: ['999998', '999999'], empty: true },
  { args: ['watch', '9999'], code: 4, failed: ['9999'], empty: true },
  { args: ['devices', 'delete', '999999', '--yes'], code: 4, failed: ['999999'], empty: true },
  { args: ['devices', 'delete', '999998', '999999', '--yes'], code: 4, failed: ['999998', '999999'], empty: true },
];

function checkPrintedOnce(r: RunResult, failed: readonly string[]): void {
  const errLines = r.stderr.split('\n');
  for (const id of failed) {
    assert.equal(errLines.filter((l) => l.includes(id)).length, 1, `unit ${id} is named once:\n${r.stderr}`);
  }
}

describe('one exit rule for multi-unit commands', () => {
  let h: Harness;
  before(async () => {
    // In-process; watch spawned, as the test stops it with a signal.
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  for (const row of TABLE) {
    test(`trackctl ${row.args.join(' ')} -> ${row.code}`, async () => {
      const r = await h.run(row.args, { timeoutMs: 120_000 });
      assert.equal(r.code, row.code, r.stderr);
      checkPrintedOnce(r, row.failed);
      if (row.empty) assert.equal(r.stdout, '', 'nothing on stdout, not even a header');
      else assert.notEqual(r.stdout, '', 'what worked was printed');
    });
  }

  test('trackctl devices delete <existing> 999999 --yes -> 7, the other deleted', async () => {
    const created = await h.json<{ did: number }>(['devices', 'create', '--name', 'Exit rule', '--tracker-id', `EXIT${Date.now() % 1e9}`, '--type', 'T1']);
    const r = await h.run(['devices', 'delete', String(created.did), '999999', '--yes']);
    assert.equal(r.code, 7, r.stderr);
    checkPrintedOnce(r, ['999999']);
    assert.equal((await h.run(['devices', 'get', String(created.did)])).code, 4);
  });

  test('trackctl watch 2004 999999: the unknown unit is given up once; stopped, the run exits 7', async () => {
    const child = spawn(process.execPath, [BIN, 'watch', '2004', '999999', '--interval', '1s', '-o', 'ndjson'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.resume();
    const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    const end = Date.now() + 60_000;
    while (!err.includes('999999')) {
      if (Date.now() > end) throw new Error(`no word of 999999: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    assert.equal(await exit, 7, err);
    checkPrintedOnce({ code: 7, stdout: '', stderr: err }, ['999999']);
  });
});
