/**
 * Help prose fits the width the options are wrapped to: 80 columns when stdout is no terminal,
 * the terminal's width on one. Every command's help is checked in-process (one program), the
 * command lines for history and the help topics in-process with stdout no terminal, and the
 * binary's own in a real pseudo-terminal. Indented
 * lines (the examples, which are commands to copy whole) are left as written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInProcess } from '../helpers/in-process.js';
import { memoryIO } from '../helpers/io.js';
import { commandPath, walkCommands } from '../../src/completion/tree.js';
import { createContext } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { runPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';
import { displayWidth } from '../../src/io/formats/render/width.js';

const env = { NO_COLOR: '1', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl-help-wrap' };

const prose = (text: string): string[] => text.split('\n').filter((l) => l !== '' && !/^\s/.test(l));

/** Every command's help as commander writes it through trackctl's output (in-process: one program, no spawn per command). */
function everyHelp(tty: boolean, columns: number): Array<[string, string]> {
  const io = memoryIO(tty, columns);
  const program = buildProgram(createContext(io, {}, '0.0.0-test'), '0');
  return walkCommands(program).map((cmd) => {
    const before = io.text().length;
    cmd.outputHelp();
    return [commandPath(cmd), io.text().slice(before)];
  });
}

test('every command help: prose lines fit 80 columns when piped, the terminal width on one', () => {
  for (const [tty, cols] of [[false, 80], [true, 60], [true, 120]] as const) {
    const helps = everyHelp(tty, cols);
    assert.ok(helps.length > 40, `the whole tree: ${helps.length} commands`);
    const wide = helps.flatMap(([path, text]) => prose(text).filter((l) => displayWidth(l) > cols).map((l) => `${path}: ${l}`));
    assert.deepEqual(wide, [], `${tty ? 'a terminal' : 'piped'}, ${cols} columns`);
    if (cols > 80) assert.ok(helps.some(([, text]) => prose(text).some((l) => displayWidth(l) > 80)), 'a wide terminal is used');
  }
});

test('piped: history --help and every help topic within 80 columns', async () => {
  for (const args of [['history', '--help'], ...['environment', 'formatting', 'exit-codes', 'auth'].map((topic) => ['help', topic])]) {
    const r = await runInProcess(args, { env, columns: 120 });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(prose(r.stdout).length > 0);
    assert.deepEqual(prose(r.stdout).filter((l) => displayWidth(l) > 80), [], args.join(' '));
  }
});

test('on a terminal the prose is wrapped to its width, as the options are', async (t) => {
  if (!needTool(t, 'tmux')) return;
  for (const cols of [120]) {
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
