/**
 * Output for people, checked in a real pseudo-terminal (tmux): tables fitted to
 * 60 and 120 columns with '…' and relative times, colour on a TTY only (not with
 * NO_COLOR or --no-color), progress lines on stderr for bulk deletes and long
 * history downloads while stdout stays data only; and without a terminal, not
 * one escape byte on stdout or stderr.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';
import { runPty, startPty } from '../helpers/pty.js';

const ESC = '\u001b';
const SGR = /\u001b\[[0-9;]*m/g;
// Any CSI or OSC sequence, for "the terminal got text only".
const ANY_ESCAPE = /\u001b(\[[0-9;?]*[ -/]*[@-~]|\][^\u0007]*\u0007)/g;
const RELATIVE = /\b(\d+ (s|min|h|d) ago|in \d+ (s|min|h|d)|never)\b/;

/** The lines the program wrote, as a person saw them (escapes removed, spinner frames split). */
function writtenLines(transcript: string): string[] {
  return transcript.replace(ANY_ESCAPE, '').split(/\r?\n|\r/).filter((l) => l !== '');
}

describe('tables, colour and progress in a real terminal', () => {
  let h: Harness;
  let fleet: Array<{ did: number; name: string }>;
  before(async () => {
    // Every request takes 25 ms, so 30 deletes last long enough (> 300 ms) to show progress.
    h = await startHarness({ devices: 60, benchReports: 200_000, faults: 'latency=25ms' });
    fleet = await h.json<Array<{ did: number; name: string }>>(['devices', 'list']);
  });
  after(async () => h.close());

  test('a table in a 60-column terminal fits, marks cuts with … and shows relative times', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const r = await runPty(['shares', 'list'], h.env, { cols: 60 });
    assert.equal(r.code, 0, r.screen);
    const lines = writtenLines(r.transcript);
    assert.equal(lines.length, 4, `header + 3 shares, none wrapped:\n${r.screen}`);
    for (const line of lines) assert.ok(line.length <= 60, `longer than 60: ${line}`);
    assert.match(r.screen, /…/);
    assert.match(r.screen, /\d+ d ago/);
    assert.match(r.screen, /in \d+ d/);
  });

  test('the same table at 120 columns shows every cell whole', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const r = await runPty(['devices', 'list', '--group', '102'], h.env, { cols: 120 });
    assert.equal(r.code, 0, r.screen);
    const lines = writtenLines(r.transcript);
    const inGroup = (await h.json<unknown[]>(['devices', 'list', '--group', '102'])).length;
    assert.equal(lines.length, 1 + inGroup, r.screen);
    for (const line of lines) assert.ok(line.length <= 120, `longer than 120: ${line}`);
    assert.doesNotMatch(r.screen, /…/);
    assert.match(r.screen, /Box truck 06/);
    assert.match(r.screen, RELATIVE);
    assert.doesNotMatch(r.screen, /\d{4}-\d\d-\d\dT/, 'no RFC 3339 times on a terminal');
  });

  test('devices list at 60 columns keeps ids, headers and relative times whole (drops low-priority columns instead)', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const r = await runPty(['devices', 'list', '--group', '102'], h.env, { cols: 60 });
    assert.equal(r.code, 0, r.screen);
    const lines = writtenLines(r.transcript);
    const inGroup = await h.json<Array<{ did: number; trackerID: string }>>(['devices', 'list', '--group', '102']);
    assert.equal(lines.length, 1 + inGroup.length, `one line per row, none wrapped:\n${r.screen}`);
    for (const line of lines) assert.ok(line.length <= 60, `longer than 60: ${line}`);
    assert.match(lines[0] ?? '', /^ DID {2}NAME +TRACKER ID {2,}ACTIVE {2}LAST REPORT$/, `whole headers:\n${r.screen}`);
    assert.doesNotMatch(lines[0] ?? '', /GROUPS|TYPE/, 'the low-priority columns are left out');
    assert.match(r.screen, /355088213821651/);
    for (const unit of inGroup) assert.ok(r.screen.includes(`${unit.did}  `) && r.screen.includes(unit.trackerID), `${unit.did} whole`);
    for (const line of lines.slice(1)) assert.match(line, /(\d+ (s|min|h|d) ago|just now|never)$/, 'the last report, whole');
    assert.doesNotMatch(r.screen, /\d+ mi…|\d…/, 'no cut numbers or times');
  });

  test('users list at 60 columns stays readable: uid, name, e-mail, type; lists left out', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const r = await runPty(['users', 'list'], h.env, { cols: 60 });
    assert.equal(r.code, 0, r.screen);
    const lines = writtenLines(r.transcript);
    for (const line of lines) assert.ok(line.length <= 60, `longer than 60: ${line}`);
    assert.match(lines[0] ?? '', /^ UID {2}NAME +EMAIL +TYPE +ACTIVE$/, r.screen);
    assert.match(r.screen, /2001 {2}Demo Admin {4}demo@example\.com +dispatcher +yes/);
    assert.match(r.screen, /trackedUser/);
  });

  test('units at 60 columns: table and summary fit, the summary split between its sections', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const r = await runPty(['units'], h.env, { cols: 60, rows: 200 });
    assert.equal(r.code, 0, r.screen);
    const lines = writtenLines(r.transcript);
    for (const line of lines) assert.ok(line.length <= 60, `longer than 60: ${line}`);
    assert.ok(lines.some((l) => /^\d+ devices, \d+ sensors, \d+ tracked users, \d+ dispatchers$/.test(l)), r.screen);
    assert.ok(lines.some((l) => /^\d+ stale \(no report in 1d\) · \d+ low on battery \(<20%\)$/.test(l)), r.screen);
  });

  test('colour on a TTY for state (inactive, low battery, stale, expired); none with NO_COLOR or --no-color', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const colour = { ...h.env, NO_COLOR: undefined };
    const devices = await runPty(['devices', 'list', '--group', '102'], colour, { cols: 120 });
    assert.equal(devices.code, 0, devices.screen);
    const red = devices.colorScreen.split('\n').find((l) => l.startsWith('2012')) ?? '';
    assert.match(red, /\u001b\[31m\s*no/, `inactive forklift in red:\n${devices.colorScreen}`);
    // The seeded reefer's battery drains over time; whatever its level, it is below 20 and yellow.
    assert.match(devices.colorScreen, /\u001b\[33m\s*\d+\u001b\[39m/, 'low battery in yellow');
    assert.match(devices.colorScreen, /\u001b\[33m\s*\d+ d ago/, 'stale unit in yellow');
    const shares = await runPty(['shares', 'list'], colour, { cols: 120 });
    const expired = shares.colorScreen.split('\n').find((l) => l.includes('(expired)')) ?? '';
    assert.match(expired, /\u001b\[3\dm/, `expired share coloured:\n${shares.colorScreen}`);

    for (const [env, flags] of [[{ ...h.env, NO_COLOR: '1' }, []], [colour, ['--no-color']]] as const) {
      const plain = await runPty(['devices', 'list', '--group', '102', ...flags], env, { cols: 120 });
      assert.equal(plain.code, 0);
      assert.doesNotMatch(plain.transcript, SGR, `colour despite ${flags.length ? '--no-color' : 'NO_COLOR'}`);
      assert.match(plain.screen, RELATIVE, 'still a table for people');
    }
  });

  test('bulk delete shows a progress line (count and rate) on the terminal; stdout stays data only', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const ids = fleet.filter((u) => u.name.startsWith('Fleet unit')).slice(0, 30).map((u) => String(u.did));
    assert.equal(ids.length, 30);
    const r = await runPty(['devices', 'delete', ...ids, '--yes', '-o', 'json'], { ...h.env, NO_COLOR: undefined }, { stdoutToFile: true });
    assert.equal(r.code, 0, r.screen);
    assert.match(r.transcript, /delete devices \d+\/30 · [\d.,]+\/s/, `no progress line:\n${r.transcript.slice(0, 2000)}`);
    assert.doesNotMatch(r.screen, /delete devices \d+\/30/, 'the progress line is cleared at the end');
    assert.match(r.screen, /✓ delete device \d+/);
    assert.ok(!r.stdout.includes(ESC), 'no escape bytes in stdout');
    const report = JSON.parse(r.stdout) as Array<{ id: number; ok: boolean }>;
    assert.equal(report.length, 30);
    assert.ok(report.every((o) => o.ok));
  });

  test('Ctrl-C during a bulk delete stops after the item in flight: exit 130, says what was done, line cleared, cursor shown', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const ids = fleet.filter((u) => u.name.startsWith('Fleet unit')).slice(30, 60).map((u) => String(u.did));
    const pty = await startPty(['devices', 'delete', ...ids, '--yes'], h.env, { stdoutToFile: true });
    try {
      await pty.waitFor(/delete devices \d+\/30/);
      await pty.keys('C-c');
      assert.equal(await pty.exitCode(), 130, await pty.screen());
      const raw = pty.transcript();
      const after = raw.slice(raw.lastIndexOf('delete devices'));
      assert.match(after, /\u001b\[\?25h/, 'cursor shown again');
      const screen = await pty.screen();
      assert.doesNotMatch(screen, /delete devices \d+\/30/, 'progress line cleared');
      const done = Number(/interrupted: (\d+) of 30 done; the rest were not tried/.exec(screen)?.[1]);
      assert.ok(done > 0 && done < 30, screen);
      const left = await h.json<Array<{ did: number }>>(['devices', 'list']);
      assert.equal(ids.filter((id) => left.some((u) => String(u.did) === id)).length, 30 - done, 'exactly the reported number deleted');
    } finally {
      await pty.close();
    }
  });

  test('a long history download to a file shows count and rate on the terminal; the file stays clean', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const { BENCH_UNIT_ID } = await import('../../src/sandbox/index.js');
    const r = await runPty(['history', String(BENCH_UNIT_ID), '--all', '-o', 'gpx'], h.env, { stdoutToFile: true });
    assert.equal(r.code, 0, r.screen);
    assert.match(r.transcript, /downloading history of unit \d+: [\d,]+ reports · [\d.,]+\/s/);
    assert.doesNotMatch(r.screen, /downloading history/, 'cleared at the end');
    assert.ok(!r.stdout.includes(ESC), 'no escape bytes in the GPX');
    assert.match(r.stdout, /^<\?xml/);
    assert.match(r.stdout.trimEnd(), /<\/gpx>$/);

    const quiet = await runPty(['history', String(BENCH_UNIT_ID), '--all', '-o', 'ndjson', '-q'], h.env, { stdoutToFile: true });
    assert.equal(quiet.code, 0);
    assert.doesNotMatch(quiet.transcript, /downloading history/, '--quiet shows no progress');
  });
});

describe('without a terminal: not one escape byte', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ devices: 12, benchReports: 60_000, faults: 'latency=25ms' });
  });
  after(async () => h.close());

  test('tables, history, prompts refused and a slow bulk delete, with colour not even disabled by NO_COLOR', async () => {
    const env = { NO_COLOR: undefined, TERM: 'xterm-256color' };
    const { BENCH_UNIT_ID } = await import('../../src/sandbox/index.js');
    const units = await h.json<Array<{ did: number; name: string }>>(['devices', 'list']);
    const ids = units.filter((u) => u.name.startsWith('Fleet unit')).map((u) => String(u.did));
    const runs: string[][] = [
      ['devices', 'list'],
      ['users', 'list'],
      ['shares', 'list'],
      ['units'],
      ['devices', 'get', '2004'],
      ['history', String(BENCH_UNIT_ID), '--all', '-o', 'gpx'],
      ['users', 'create'],
      ['devices', 'delete', '2004'],
      ['devices', 'delete', ...ids, '--yes'],
    ];
    for (const args of runs) {
      const r = await h.run(args, { env });
      assert.ok(!r.stdout.includes(ESC), `${args.join(' ')}: escape bytes on stdout`);
      assert.ok(!r.stderr.includes(ESC), `${args.join(' ')}: escape bytes on stderr: ${JSON.stringify(r.stderr.slice(0, 200))}`);
    }
  });
});
