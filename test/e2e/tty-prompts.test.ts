/**
 * Prompts in a real pseudo-terminal (tmux): asked on a TTY, masked for secrets,
 * drawn on stderr only; confirmations for destructive commands; Ctrl-C and "n"
 * change nothing (the sandbox's request log proves no write was sent); without
 * a terminal, with --no-input or with CI set, nothing is asked and the exit is 2.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';
import { runPty, startPty } from '../helpers/pty.js';

const ESC = '\u001b';
const writes = (h: Harness) => h.sandbox.requests.filter((r) => r.method !== 'GET');

describe('prompts in a real terminal', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  test('login asks for the e-mail and the password (masked, never echoed) and signs in', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const env = { ...h.env, TRACKCTL_DATA_DIR: `${h.dir}/login-data` };
    const pty = await startPty(['login'], env);
    try {
      await pty.waitFor('E-mail address:');
      await pty.type(DEMO.email);
      await pty.keys('Enter');
      await pty.waitFor('Password:');
      await pty.type(DEMO.password);
      const typed = await pty.waitFor(/Password:\s*\*{4}/);
      const passwordLine = typed.split('\n').find((l) => l.includes('Password:')) ?? '';
      assert.doesNotMatch(passwordLine, new RegExp(DEMO.password), 'the password is not shown while typed');
      await pty.keys('Enter');
      assert.equal(await pty.exitCode(), 0, await pty.screen());
      const screen = await pty.waitFor('Signed in as');
      assert.match(screen, /Signed in as demo@example\.com/);
      // Not one byte of the password reached the terminal between the prompt and the result.
      const raw = pty.transcript();
      const between = raw.slice(raw.indexOf('Password'), raw.indexOf('Signed in'));
      assert.ok(between.length > 0 && !between.includes(DEMO.password), 'password echoed to the terminal');
    } finally {
      await pty.close();
    }
  });

  test('users create asks each field, the type from a choice list; stdout keeps only the record', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const pty = await startPty(['users', 'create', '-o', 'json'], h.env, { stdoutToFile: true });
    try {
      await pty.waitFor('Full name:');
      await pty.type('Tess Terminal');
      await pty.keys('Enter');
      await pty.waitFor('E-mail address:');
      await pty.type('tess.terminal@example.com');
      await pty.keys('Enter');
      const list = await pty.waitFor('User type:');
      assert.match(list, /trackedUser/);
      assert.match(list, /dispatcher/);
      await pty.keys('Down');
      await pty.waitFor(/❯ dispatcher/);
      await pty.keys('Enter');
      assert.equal(await pty.exitCode(), 0, await pty.screen());
      const out = pty.stdoutFile();
      assert.ok(!out.includes(ESC), 'no escape bytes in stdout');
      const user = JSON.parse(out) as { name: string; email: string; userType: string };
      assert.deepEqual([user.name, user.email, user.userType], ['Tess Terminal', 'tess.terminal@example.com', 'dispatcher']);
    } finally {
      await pty.close();
    }
  });

  test('devices delete asks to confirm: "n" deletes nothing (exit 130), "y" deletes', async (t) => {
    if (!needTool(t, 'tmux')) return;
    h.sandbox.clearRequests();
    let pty = await startPty(['devices', 'delete', '2004'], h.env);
    try {
      await pty.waitFor(/Delete device 2004\? \(y\/N\)/);
      await pty.type('n');
      await pty.keys('Enter');
      assert.equal(await pty.exitCode(), 130);
      assert.match(await pty.waitFor('cancelled'), /cancelled; nothing was changed/);
    } finally {
      await pty.close();
    }
    assert.deepEqual(writes(h), [], 'declining sent no write');
    assert.equal((await h.run(['devices', 'get', '2004'])).code, 0, 'the device is still there');

    pty = await startPty(['devices', 'delete', '2004'], h.env);
    try {
      await pty.waitFor(/Delete device 2004\?/);
      await pty.type('y');
      await pty.keys('Enter');
      assert.equal(await pty.exitCode(), 0, await pty.screen());
    } finally {
      await pty.close();
    }
    assert.ok(h.sandbox.requests.some((r) => r.method === 'DELETE' && r.path.includes('2004')));
    assert.equal((await h.run(['devices', 'get', '2004'])).code, 4, 'the device is gone');
  });

  test('Ctrl-C at a prompt exits 130 and sends nothing', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const cases: Array<[string[], string]> = [
      [['users', 'create'], 'Full name:'],
      [['devices', 'delete', '2005'], 'Delete device 2005?'],
      [['logout', '--all'], 'Forget the stored credentials'],
    ];
    for (const [args, prompt] of cases) {
      h.sandbox.clearRequests();
      const pty = await startPty(args, h.env);
      try {
        await pty.waitFor(prompt);
        await pty.keys('C-c');
        assert.equal(await pty.exitCode(), 130, `${args.join(' ')}: ${await pty.screen()}`);
        assert.match(await pty.waitFor('interrupted'), /interrupted; nothing was changed/);
      } finally {
        await pty.close();
      }
      assert.deepEqual(writes(h), [], `${args.join(' ')} sent a write after Ctrl-C`);
    }
    assert.equal((await h.run(['devices', 'get', '2005'])).code, 0);
    assert.equal((await h.run(['login', 'status'])).code, 0, 'still signed in after Ctrl-C at logout --all');
  });

  test('CI=true or --no-input in a terminal: nothing is asked, exit 2 naming the flag or --yes', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['users', 'create'], { CI: 'true' }, /missing --name, --email, --type \(CI is set/],
      [['devices', 'delete', '2005'], { CI: 'true' }, /refusing without --yes \(CI is set/],
      [['users', 'create', '--no-input'], {}, /missing --name, --email, --type \(--no-input/],
      [['devices', 'delete', '2005', '--no-input'], {}, /refusing without --yes \(--no-input/],
    ];
    for (const [args, env, message] of cases) {
      h.sandbox.clearRequests();
      const r = await runPty(args, { ...h.env, ...env });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.screen}`);
      assert.match(r.screen, message);
      assert.doesNotMatch(r.screen, /^\?/m, 'no prompt was drawn');
      assert.deepEqual(writes(h), []);
    }
  });
});

describe('prompts without a terminal', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  test('a missing value or confirmation is exit 2 naming the flags; nothing is sent; no escape bytes', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['login'], /missing --email/],
      [['users', 'create'], /missing --name, --email, --type \(no terminal to ask on; --type: one of trackedUser, dispatcher\)/],
      [['login'], /missing --email, --password-stdin \(no terminal to ask on\)/],
      [['users', 'create', '--name', 'X', '--email', 'x@example.com'], /missing --type \(no terminal to ask on; one of trackedUser, dispatcher\)/],
      [['devices', 'create', '--name', 'X'], /missing --tracker-id, --type/],
      [['devices', 'delete', '2004'], /refusing without --yes/],
      [['sensors', 'delete', '2016'], /refusing without --yes/],
      [['users', 'delete', '2002'], /refusing without --yes/],
      [['groups', 'delete', '101'], /refusing without --yes/],
      [['shares', 'delete', 'abcdefgh'], /refusing without --yes/],
      [['logout', '--all'], /refusing without --yes/],
    ];
    for (const [args, message] of cases) {
      h.sandbox.clearRequests();
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
      assert.ok(!r.stderr.includes(ESC), `${args.join(' ')}: escape bytes on a pipe`);
      assert.deepEqual(writes(h), [], `${args.join(' ')} sent a write`);
    }
  });
});
