/**
 * Building only the invoked command's subtree: the table of top-level commands
 * matches what each register function defines, and the first operand is found
 * past every form of root option.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { TOP_LEVEL, buildProgram, firstOperand } from '../../src/program.js';
import { createContext } from '../../src/context.js';
import { memoryIO } from '../helpers/io.js';

const ctx = () => createContext(memoryIO(), {}, '0.0.0-test');
const names = (cmd: Command) => cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);

test('each entry of the top-level table names exactly the commands its function defines', () => {
  for (const { names: listed, register } of TOP_LEVEL) {
    const scratch = new Command('scratch');
    register(scratch, ctx());
    assert.deepEqual(names(scratch).sort(), [...listed].sort());
  }
  assert.deepEqual(names(buildProgram(ctx(), '0')).sort(), TOP_LEVEL.flatMap((c) => c.names).sort());
});

test('a command line defines only the invoked subtree, plus help', () => {
  assert.deepEqual(names(buildProgram(ctx(), '0', ['-o', 'json', 'devices', 'list'])), ['devices', 'help']);
  assert.deepEqual(names(buildProgram(ctx(), '0', ['token', 'print'])), ['login', 'logout', 'token', 'help']);
  const full = TOP_LEVEL.flatMap((c) => c.names);
  for (const argv of [[], ['--help'], ['help', 'devices', 'list'], ['__complete', '--', 'devices', ''], ['completion', 'bash'], ['devicez']]) {
    assert.deepEqual(names(buildProgram(ctx(), '0', argv)), full, argv.join(' '));
  }
});

test('the first operand is found past root options and their values', () => {
  const program = buildProgram(ctx(), '0');
  const cases: Array<[string[], string | undefined]> = [
    [['devices', 'list'], 'devices'],
    [['-p', 'devices', 'users', 'list'], 'users'],
    [['--profile', 'devices', 'users'], 'users'],
    [['--profile=devices', 'users'], 'users'],
    [['-pdevices', 'users'], 'users'],
    [['-vqo', 'json', 'groups'], 'groups'],
    [['-vq', 'groups'], 'groups'],
    [['--no-color', '--base-url', 'http://127.0.0.1:1', '--sandbox', 'units'], 'units'],
    [['--', 'shares'], 'shares'],
    [['--timeout', '5s', '--retries', '0'], undefined],
  ];
  for (const [argv, want] of cases) assert.equal(firstOperand(argv, program), want, argv.join(' '));
});
