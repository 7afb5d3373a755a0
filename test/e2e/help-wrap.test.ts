/**
 * Help prose fits the width the options are wrapped to: 80 columns when stdout is no terminal,
 * the terminal's width on one (a real pseudo-terminal). Every command's help is checked;
 * indented lines (the examples, which are commands to copy whole) are left as written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { runPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';
import { displayWidth } from '../../src/io/render/width.js';

const env = { NO_COLOR: '1', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl-help-wrap' };

/** Every command path, read from the "Commands:" sections of the help itself. */
async function commandPaths(path: string[] = []): Promise<string[][]> {
  const r = await runCli([...path, '--help'], env);
  assert.equal(r.code, 0, r.stderr);
  const section = r.stdout.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? '';
  const subs = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help' || path.length === 0);
  const out: string[][] = [path];
  for (const sub of subs) out.push(...(sub === 'help' ? [[sub]] : await commandPaths([...path, sub])));
  return out;
}

const prose = (text: string): string[] => text.split('\n').filter((l) => l !== '' && !/^\s/.test(l));

test('every command help: prose lines fit 80 columns when piped', { timeout: 300_000 }, async () => {
  const paths = await commandPaths();
  assert.ok(paths.length > 40, `the whole tree: ${paths.length} commands`);
  const wide: string[] = [];
  for (const path of paths) {
    const r = await runCli([...path, '--help'], env);
    for (const line of prose(r.stdout)) if (displayWidth(line) > 80) wide.push(`${path.join(' ')}: ${line}`);
  }
  for (const topic of ['environment', 'formatting', 'exit-codes', 'auth']) {
    const r = await runCli(['help', topic], env);
    assert.equal(r.code, 0, r.stderr);
    for (const line of prose(r.stdout)) if (displayWidth(line) > 80) wide.push(`help ${topic}: ${line}`);
  }
  assert.deepEqual(wide, []);
});

test('on a terminal the prose is wrapped to its width, as the options are', async (t) => {
  if (!needTool(t, 'tmux')) return;
  for (const cols of [60, 120]) {
    const r = await runPty(['history', '--help'], env, { cols, rows: 200 });
    assert.equal(r.code, 0, r.stderr);
    // Everything written to the terminal (the screen holds only its last rows).
    const text = r.transcript.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
    const lines = prose(text);
    assert.ok(lines.length > 10);
    assert.deepEqual(lines.filter((l) => displayWidth(l) > cols), [], `${cols} columns`);
    // Filled to the width, not left at 80: some prose line is longer than the narrower wrap would allow.
    if (cols > 80) assert.ok(lines.some((l) => displayWidth(l) > 80), 'the prose uses the wider terminal');
    const option = /^ {2}--from <time> +(.*)$/m.exec(text);
    assert.ok(option, 'the options are listed');
  }
});
