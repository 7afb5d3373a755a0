/**
 * Habits from gh and kubectl on every list: -o wide (every column, however narrow the
 * terminal), -o name (kind/id a line), --sort-by FIELD (=-FIELD descending) and --limit N;
 * an unknown format or field names the ways to shape output. And an export at a terminal
 * ends with one line saying what was written where.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';
import { startPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';

interface Unit {
  did: number;
  name: string;
  lastBatteryLevel: number | null;
  deviceCategory?: string;
}

describe('lists: -o wide, -o name, --sort-by, --limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  test('-o name: kind/id a line, for every list', async () => {
    const devices = await h.json<Unit[]>(['devices', 'list']);
    const names = await h.run(['devices', 'list', '-o', 'name']);
    assert.equal(names.code, 0, names.stderr);
    assert.deepEqual(names.stdout.trim().split('\n'), devices.map((d) => `device/${d.did}`));
    const sensors = (await h.run(['sensors', 'list', '-o', 'name'])).stdout.trim().split('\n');
    assert.ok(sensors.length > 0 && sensors.every((l) => /^sensor\/\d+$/.test(l)), sensors.join(' '));
    assert.match((await h.run(['users', 'list', '-o', 'name'])).stdout, /^user\/2001$/m);
    assert.match((await h.run(['groups', 'list', '-o', 'name'])).stdout, /^group\/101$/m);
    assert.match((await h.run(['shares', 'list', '-o', 'name'])).stdout, /^share\/\w+$/m);
    const units = (await h.run(['units', '-o', 'name'])).stdout.trim().split('\n');
    assert.ok(units.includes('device/2004') && units.includes('trackedUser/2020') && units.includes('dispatcher/2001'), units.join(' '));
  });

  test('--sort-by orders by a column or field (=-FIELD descending, no value last); --limit keeps the first N', async () => {
    const all = await h.json<Unit[]>(['devices', 'list']);
    const levels = all.map((d) => d.lastBatteryLevel).filter((v): v is number => typeof v === 'number');
    const low = await h.json<Unit[]>(['devices', 'list', '--sort-by', 'lastBatteryLevel', '--limit', '3']);
    assert.deepEqual(low.map((d) => d.lastBatteryLevel), [...levels].sort((a, b) => a - b).slice(0, 3));
    const high = await h.json<Unit[]>(['devices', 'list', '--sort-by=-lastBatteryLevel', '--limit', '2']);
    assert.deepEqual(high.map((d) => d.lastBatteryLevel), [...levels].sort((a, b) => b - a).slice(0, 2));
    const byName = await h.run(['units', '--category', 'device', '--sort-by', 'name', '-o', 'csv', '--fields', 'name']);
    const names = byName.stdout.trim().split(/\r?\n/).slice(1);
    assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
    assert.equal((await h.run(['users', 'list', '--limit', '2', '-o', 'name'])).stdout.trim().split('\n').length, 2);
  });

  test('a bad --limit, --sort-by, format or field is exit 2 naming the ways to shape output', async () => {
    await h.expectUsage(['devices', 'list', '--limit', '0'], '--limit');
    await h.expectUsage(['devices', 'list', '-o', 'xml'], 'custom-columns');
    await h.expectUsage(['devices', 'list', '--fields', 'did,colour'], '--jq');
    const r = await h.run(['devices', 'list', '--sort-by', 'colour']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown --sort-by field "colour": choose from did, name/);
  });

  test('on a narrow terminal the table drops columns; -o wide keeps them all', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const header = async (args: string[]): Promise<string> => {
      const pty = await startPty(args, h.env, { cols: 60, rows: 40 });
      try {
        assert.equal(await pty.exitCode(), 0);
        return (await pty.screen()).split('\n')[0] ?? '';
      } finally {
        await pty.close();
      }
    };
    const narrow = await header(['devices', 'list']);
    assert.doesNotMatch(narrow, /GROUPS/, narrow);
    // Wider than the terminal: the terminal wraps each line (joined again here).
    const pty = await startPty(['devices', 'list', '-o', 'wide'], h.env, { cols: 60, rows: 40 });
    try {
      assert.equal(await pty.exitCode(), 0);
      const wide = (await pty.screen({ joined: true })).split('\n')[0] ?? '';
      assert.ok(wide.length > 60, wide);
      assert.match(wide, /^ *DID +NAME +TRACKER ID +TYPE +ACTIVE +BATTERY +LAST REPORT.* +GROUPS$/, wide);
    } finally {
      await pty.close();
    }
  });

  test('a list or a history that finds nothing says so at a terminal; into a pipe or with -q, not a word', async () => {
    const [unit] = await h.json<Unit[]>(['devices', 'list', '--limit', '1']);
    const cases: Array<[string[], string]> = [
      [['devices', 'list', '--group', '999999'], 'No devices found.'],
      [['sensors', 'list', '--group', '999999'], 'No sensors found.'],
      // a window of 1970: no report in it
      [['history', String(unit?.did), '--from', '1000', '--to', '2000'], 'No reports found.'],
    ];
    for (const [args, said] of cases) {
      const tty = await h.runIn(args, { tty: { stdout: true, stderr: true }, columns: 120 });
      assert.equal(tty.code, 0, tty.stderr);
      assert.equal(tty.stderr.trim(), said, args.join(' '));
      const piped = await h.runIn(args);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stderr, '', `${args.join(' ')} into a pipe`);
      const quiet = await h.runIn([...args, '-q'], { tty: { stdout: true, stderr: true }, columns: 120 });
      assert.equal(quiet.stderr, '', `${args.join(' ')} -q`);
    }
  });

  test('an export at a terminal ends with one line: reports, units, files, where, time; -q says nothing', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const dir = join(h.dir, 'export');
    const pty = await startPty(['history', '--group', '101', '--from', '1d', '--out-dir', dir], h.env, { cols: 120, rows: 10 });
    try {
      assert.equal(await pty.exitCode(), 0);
      const files = readdirSync(dir).length;
      const screen = await pty.screen();
      assert.match(screen, new RegExp(`^history: [\\d,]+ reports of \\d+ units into ${files} files in ${dir} \\(\\d+(\\.\\d)? s\\)$`, 'm'), screen);
    } finally {
      await pty.close();
    }
    const quiet = await startPty(['history', '--group', '101', '--from', '1d', '--out-dir', join(h.dir, 'quiet'), '-q'], h.env, { cols: 120, rows: 10 });
    try {
      assert.equal(await quiet.exitCode(), 0);
      assert.doesNotMatch(await quiet.screen(), /history:/);
    } finally {
      await quiet.close();
    }
  });
});
