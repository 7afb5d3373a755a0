/**
 * V8's compiled code for dist/ kept between runs (bin/trackctl.js, codeCache): the second run
 * of a command compiles nothing the first one kept, a kept file V8 refuses (damaged, or kept
 * under other flags) is compiled as before and kept again, a cache directory that cannot be
 * written changes nothing but speed, and TRACKCTL_NO_CODE_CACHE=1 keeps nothing.
 * NODE_DEBUG=trackctl says for each loaded file whether its kept code was used.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startHarness, type Harness, type RunResult } from '../helpers/cli.js';

let h: Harness;
before(async () => {
  // A frozen clock: runs compared for the same output must see the same fleet.
  h = await startHarness({ now: () => Date.UTC(2026, 10, 24, 12), sessionTtl: 30 * 86400 });
});
after(async () => h.close());

const buildDir = `${readFileSync(join(ROOT, 'dist', 'build-id'), 'utf8').trim()}-${process.version}-${process.arch}`;

/** Each dist/ file the run loaded, and what happened to its kept code: 'used', 'refused' or 'none'. */
function loads(stderr: string): Map<string, 'used' | 'refused' | 'none'> {
  const out = new Map<string, 'used' | 'refused' | 'none'>();
  for (const m of stderr.matchAll(/load "[^"]*\/(dist\/[\w/.-]+\.js)"( \(code cache( refused)?\))?/g)) out.set(m[1]!, m[2] === undefined ? 'none' : m[3] ? 'refused' : 'used');
  return out;
}

async function run(args: string[], cacheHome: string, env: Record<string, string> = {}): Promise<RunResult> {
  const r = await h.spawn(args, { env: { XDG_CACHE_HOME: cacheHome, NODE_DEBUG: 'trackctl', ...env } });
  assert.equal(r.code, 0, r.stderr.slice(-800));
  return r;
}

const freshHome = (): string => mkdtempSync(join(tmpdir(), 'trackctl-code-'));

test('a second run uses the code the first kept, for every file loaded before the flags change, and prints the same', async () => {
  const home = freshHome();
  try {
    const first = await run(['devices', 'list', '-o', 'json'], home);
    const firstLoads = loads(first.stderr);
    assert.ok(firstLoads.size > 10, 'files loaded');
    assert.ok([...firstLoads.values()].every((v) => v === 'none'), 'nothing kept yet');
    const kept = readdirSync(join(home, 'trackctl', 'code', buildDir));
    assert.equal(statSync(join(home, 'trackctl', 'code', buildDir)).mode & 0o777, 0o700, 'the directory is the user\'s alone');
    assert.ok(kept.includes('main.js'), `kept: ${kept.join(' ')}`);
    const second = await run(['devices', 'list', '-o', 'json'], home);
    assert.equal(second.stdout, first.stdout);
    const used = [...loads(second.stderr)].filter(([, v]) => v === 'used').map(([f]) => f);
    assert.ok(used.includes('dist/main.js') && used.length >= kept.length, `used: ${used.join(' ')}`);
    assert.ok(![...loads(second.stderr).values()].includes('refused'));
    // jq changes V8's flags when it starts: what was kept before still serves, and the next run's too.
    for (let i = 0; i < 2; i++) {
      const jq = await run(['devices', 'list', '--jq', '.[0].name'], home);
      assert.equal(jq.stdout, `${JSON.parse(first.stdout)[0].name}\n`);
      assert.ok(![...loads(jq.stderr).values()].includes('refused'), jq.stderr);
      assert.equal(loads(jq.stderr).get('dist/main.js'), 'used');
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('kept code V8 refuses is compiled as before and kept again; an unwritable cache or TRACKCTL_NO_CODE_CACHE keeps nothing', async () => {
  const home = freshHome();
  try {
    const expected = (await run(['units', '-o', 'json'], home)).stdout;
    const main = join(home, 'trackctl', 'code', buildDir, 'main.js');
    writeFileSync(main, Buffer.alloc(4096, 7));
    const damaged = await run(['units', '-o', 'json'], home);
    assert.equal(damaged.stdout, expected);
    assert.equal(loads(damaged.stderr).get('dist/main.js'), 'refused');
    assert.equal(loads((await run(['units', '-o', 'json'], home)).stderr).get('dist/main.js'), 'used', 'kept again');

    // A directory others may write is not read: its code would run as this user.
    chmodSync(join(home, 'trackctl', 'code', buildDir), 0o777);
    const shared = await run(['units', '-o', 'json'], home);
    assert.equal(shared.stdout, expected);
    assert.equal(loads(shared.stderr).get('dist/main.js'), 'none');
    chmodSync(join(home, 'trackctl', 'code', buildDir), 0o700);

    // A file where the cache directory would be: the command runs as ever, saying nothing of it.
    const blocked = join(home, 'blocked');
    writeFileSync(blocked, '');
    const r = await run(['units', '-o', 'json'], blocked, { NODE_DEBUG: '' });
    assert.equal(r.stdout, expected);
    assert.equal(r.stderr, '');

    const off = freshHome();
    await run(['units', '-o', 'json'], off, { TRACKCTL_NO_CODE_CACHE: '1' });
    assert.deepEqual(readdirSync(off), []);
    rmSync(off, { recursive: true });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a new build\'s cache leaves the three last written of the others and removes the rest', async () => {
  const home = freshHome();
  try {
    const code = join(home, 'trackctl', 'code');
    const now = Date.now() / 1000;
    for (let i = 1; i <= 5; i++) {
      mkdirSync(join(code, `old${i}`), { recursive: true });
      utimesSync(join(code, `old${i}`), now - i * 3600, now - i * 3600);
    }
    await run(['units', '-o', 'json'], home);
    assert.deepEqual(readdirSync(code).sort(), [buildDir, 'old1', 'old2', 'old3'].sort());
    assert.ok(existsSync(join(code, buildDir, 'main.js')));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
