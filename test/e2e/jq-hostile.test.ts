/**
 * --jq as a hostile or demanding user drives it: a program that prints without end streams
 * (its first line shows while it runs, and it stops when the reader leaves), one that needs
 * more than jq's heap stops with a clear error, and jq sees the real environment, --arg and
 * --argjson, and local time in the zone (TZ), as Debian's jq does.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { BIN, startHarness, type Harness } from '../helpers/cli.js';
import { needJq } from './jq-corpus.js';

describe('--jq: streaming, a memory bound, the environment, variables and local time', () => {
  let h: Harness;
  before(async () => {
    // In-process; spawned where the reader of stdout leaves.
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h?.close();
  });

  /** The environment trackctl runs with in h.run and h.spawn (test/helpers/cli.ts, in-process.ts), for Debian's jq to get the same. */
  const envOf = (extra: Record<string, string> = {}): Record<string, string> => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ PATH: process.env.PATH, HOME: process.env.HOME, ...h.env, ...extra })) if (v !== undefined) env[k] = v;
    return env;
  };
  const debian = (expression: string, args: string[], env: Record<string, string>): string => {
    const r = spawnSync('jq', ['-n', '-r', '-c', ...args, expression], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, `jq itself runs ${expression}: ${r.stderr}`);
    return r.stdout;
  };

  test('a program that prints without end streams: the first line arrives while it runs, and it stops when the reader leaves', async () => {
    const child = spawn(process.execPath, [BIN, 'devices', 'get', '2004', '--jq', 'range(1e12)'], { env: envOf(), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const first = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        // Two lines: a pipe may hand over the first one alone.
        if (text.split('\n').length > 2) resolve(text);
      });
      child.on('close', () => reject(new Error(`ended before a line: ${text}`)));
    });
    // The reader leaves whatever the first lines were: a failed match must not leave range(1e12) running (the file would hang to its timeout).
    child.stdout.destroy();
    assert.match(first, /^0\n1\n/);
    // Only a jq that stops when its reader leaves lets the process end (the test's timeout says otherwise).
    assert.notEqual(await exited, null);
  });

  test('a program that needs more memory than jq has stops with a clear error, exit 2, no Emscripten abort', async () => {
    const r = await h.run(['devices', 'get', '2004', '--jq', '[range(1e9)] | length']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^error: --jq: the expression used more than 256 MB of memory/);
    assert.doesNotMatch(r.stderr, /Aborted|ASSERTIONS|RuntimeError/);
    assert.equal(r.stdout, '');
  });

  test('$ENV and env are the real environment; --arg and --argjson bind variables (as Debian jq)', async (t) => {
    const extra = { HOME: h.dir, TRACKCTL_TEST_VALUE: 'a b=c' };
    const expression = '[$ENV.HOME, env.TRACKCTL_TEST_VALUE, ($ENV | keys), (env == $ENV), $unit, $n, $cfg.speeds[1], $ARGS.named]';
    const args = ['--arg', 'unit', 'Ford Transit 01', '--arg', 'n', '-5', '--argjson', 'cfg', '{"speeds":[30,50]}'];
    const r = await h.run(['devices', 'get', '2004', '--jq', expression, ...args], { env: extra });
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse(r.stdout) as unknown[];
    assert.equal(got[0], h.dir);
    assert.equal(got[1], 'a b=c');
    assert.equal(got[4], 'Ford Transit 01');
    assert.equal(got[5], '-5', 'a value that looks like an option is the value');
    assert.equal(got[6], 50);
    if (needJq(t)) assert.equal(r.stdout, debian(expression, args, envOf(extra)));
  });

  test('--argjson with invalid JSON, or --arg without --jq, is a usage error before anything is sent', async () => {
    await h.expectUsage(['devices', 'get', '2004', '--jq', '$x', '--argjson', 'x', '{bad'], '--argjson x: not JSON');
    await h.expectUsage(['devices', 'get', '2004', '--arg', 'x', '1'], '--arg binds a variable for --jq');
    await h.expectUsage(['devices', 'get', '2004', '--jq', '$x', '--arg', '1x', 'v'], 'a variable name');
  });

  // November: Debian's jq 1.6 gets %z and summer time wrong, so those are checked on their own below.
  const TIME = [
    '1700000000 | localtime',
    '1700000000 | localtime | mktime',
    '1700000000 | gmtime',
    '1700000000 | gmtime | mktime',
    '1700000000 | strftime("%Y-%m-%dT%H:%M:%SZ %a %j")',
    '1700000000 | strflocaltime("%Y-%m-%d %H:%M:%S %Z")',
    '1700000000 | localtime | strflocaltime("%H:%M %a %b %e")',
    '1700000000 | todate',
    '"2023-11-14T22:13:20Z" | fromdate',
  ];
  for (const zone of ['Asia/Tokyo', 'America/New_York']) {
    test(`local time in TZ=${zone}: localtime, mktime, gmtime, strftime and strflocaltime as Debian jq`, async (t) => {
      const expression = `[${TIME.map((e) => `(${e})`).join(', ')}]`;
      const r = await h.run(['devices', 'get', '2004', '--jq', expression], { env: { TZ: zone } });
      assert.equal(r.code, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as string[])[5], zone === 'Asia/Tokyo' ? '2023-11-15 07:13:20 JST' : '2023-11-14 17:13:20 EST');
      if (needJq(t)) assert.equal(r.stdout, debian(expression, [], envOf({ TZ: zone })));
    });
  }

  test('strflocaltime gives the offset and the summer name of the moment (%z, %Z)', async () => {
    const expression = '[1700000000, 1690000000] | map(strflocaltime("%H:%M %z %Z"))';
    const tokyo = await h.run(['devices', 'get', '2004', '--jq', expression], { env: { TZ: 'Asia/Tokyo' } });
    assert.equal(tokyo.stdout, '["07:13 +0900 JST","13:26 +0900 JST"]\n', tokyo.stderr);
    const newYork = await h.run(['devices', 'get', '2004', '--jq', expression], { env: { TZ: 'America/New_York' } });
    assert.equal(newYork.stdout, '["17:13 -0500 EST","00:26 -0400 EDT"]\n', newYork.stderr);
  });
});
