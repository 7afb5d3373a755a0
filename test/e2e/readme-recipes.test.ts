/**
 * The recipe for rehearsing a script against the sandbox (docs/sandbox.md; the README links it), run as written in a real
 * shell (bash, and sh), with `trackctl` on PATH, a provisioning script that creates a device,
 * and an old sandbox.out lying around (a stale address must never be read).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';

function guideBlock(heading: string): string {
  const guide = readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8');
  const at = guide.indexOf(`## ${heading}\n`);
  assert.ok(at >= 0, `docs/sandbox.md has "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(guide.slice(at));
  assert.ok(block, 'with a sh block');
  return block[1]!;
}

function shell(sh: string, script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(sh, ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

for (const sh of ['bash', 'sh']) {
  test(`the rehearsal recipe works as written in ${sh}, even with an old sandbox.out in the directory`, { timeout: 180_000 }, async (t) => {
    if (!needTool(t, sh)) return;
    const dir = mkdtempSync(join(tmpdir(), 'trackctl-recipe-'));
    try {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'trackctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(join(bin, 'trackctl'), 0o755);
      // What an earlier rehearsal left: its address is dead now.
      writeFileSync(join(dir, 'sandbox.out'), 'base-url: http://127.0.0.1:9\nemail: demo@example.com\n');
      writeFileSync(join(dir, 'provision.sh'), '#!/bin/sh\nset -e\ntrackctl devices create --name "Rehearsed van" --tracker-id 356938035643817 --type TT8850 -o json > created.json\n');
      chmodSync(join(dir, 'provision.sh'), 0o755);
      const recipe = guideBlock('Rehearsing a script against the sandbox');
      assert.match(recipe, /\.\/provision\.sh/);
      // After the recipe: the sandbox's exit code, as the recipe promises (stopped, exits 0).
      const script = `${recipe}\nwait "$SANDBOX_PID" && echo "sandbox exited 0"\n`;
      const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8', TRACKCTL_DATA_DIR: join(dir, 'data') };
      const r = await shell(sh, script, dir, env);
      assert.equal(r.code, 0, `${sh}: ${r.stderr}`);
      assert.match(r.stdout, /sandbox exited 0/);
      const created = JSON.parse(readFileSync(join(dir, 'created.json'), 'utf8')) as { did: number; name: string };
      assert.equal(created.name, 'Rehearsed van');
      assert.ok(created.did > 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
