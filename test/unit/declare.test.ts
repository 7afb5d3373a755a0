/**
 * A command is one declaration: registering it builds the commander command (help text,
 * kinds, shared groups) without loading its handler, and running it hands the handler the
 * values the declaration types, in process (no binary spawned).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { createContext } from '../../src/context.js';
import { declarationOf, defineCommand, duration, flag, int, list, registerCommand, strictChoice, text, type Values } from '../../src/commands/declare.js';
import { lake, selection, window } from '../../src/commands/shared-options.js';
import { seconds, whole } from '../../src/commands/values.js';
import { UsageError } from '../../src/errors.js';
import { memoryIO } from '../helpers/io.js';

const ctx = () => createContext(memoryIO(), {}, '0.0.0-test');

const options = [
  ...selection(),
  ...window({ from: 'from', to: 'to' }),
  ...lake(),
  list('--types <list>', 'types, repeated'),
  flag('--no-motion-state', 'speed alone'),
  duration('--interval <duration>', 'between polls', seconds(1), { default: '30s' }),
  int('--port <n>', 'a port', whole(0, 65535), { fallback: '0' }),
  strictChoice('--method <method>', ['GET', 'POST'], 'HTTP method', { fallback: 'GET' }),
  text('--name <name>', 'a name', { required: true }),
] as const;

function declared(onLoad: () => void, received: Array<{ args: string[]; values: unknown }>) {
  return defineCommand({
    name: 'probe',
    summary: 'a probe',
    args: [{ spec: '[ids...]', help: 'unit ids' }],
    options,
    examples: ['trackctl probe 1 --name x'],
    load: async () => {
      onLoad();
      return {
        run: async (args: string[], values: Values<typeof options>) => {
          // Typed from the declaration: a present option is no longer optional.
          const method: 'GET' | 'POST' = values.method;
          const name: string = values.name;
          const port: number = values.port;
          const interval: number | undefined = values.interval;
          const gid: number | undefined = values.group;
          received.push({ args, values: { ...values, method, name, port, interval, group: gid } });
        },
      };
    },
  });
}

function program(decl: Parameters<typeof registerCommand>[1]): Command {
  const root = new Command('trackctl').exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  registerCommand(root, decl, ctx());
  return root;
}

test('registering declares the options and help, loads no handler, and keeps the declaration for the reference', () => {
  let loads = 0;
  const decl = declared(() => loads++, []);
  const root = program(decl);
  const cmd = root.commands[0]!;
  assert.equal(loads, 0);
  assert.equal(declarationOf(cmd), decl);
  assert.deepEqual(
    cmd.options.map((o) => o.long),
    ['--group', '--category', '--all-units', '--from', '--to', '--tz', '--out-dir', '--partition', '--layout', '--max-file-size', '--compression', '--shard', '--types', '--no-motion-state', '--interval', '--port', '--method', '--name'],
  );
  const help = cmd.helpInformation();
  assert.match(help, /--interval <duration> +between polls \(default 30s\)/);
  assert.match(help, /--port <n> +a port \(default: 0\)/);
  assert.match(help, /--method <method> +HTTP method \(choices: "GET", "POST", default: "GET"\)/);
});

test('running hands the handler the typed values: lists collected, negations, fallbacks, operands', async () => {
  let loads = 0;
  const received: Array<{ args: string[]; values: unknown }> = [];
  const root = program(declared(() => loads++, received));
  await root.parseAsync(['probe', '2004', '2005', '--all-units', '--types', 'sos,crash', '--types', 'report', '--no-motion-state', '--layout', 'hive', '--name', 'x'], { from: 'user' });
  assert.equal(loads, 1);
  assert.deepEqual(received, [
    { args: ['2004', '2005'], values: { allUnits: true, types: ['sos,crash', 'report'], motionState: false, layout: 'hive', method: 'GET', name: 'x', port: 0, interval: undefined, group: undefined } },
  ]);
});

test('numbers, durations and sizes reach the handler read: seconds, bytes, ids', async () => {
  const received: Array<{ args: string[]; values: unknown }> = [];
  const root = program(declared(() => undefined, received));
  await root.parseAsync(['probe', '--group', '101', '--interval', '2m', '--port', '8080', '--max-file-size', '1MiB', '--name', 'x'], { from: 'user' });
  assert.deepEqual(received[0]?.values, { group: 101, interval: 120, port: 8080, maxFileSize: 1024 ** 2, motionState: true, method: 'GET', name: 'x' });
});

test('a bad number, duration or size is a UsageError naming the flag and the value, before the handler loads', async () => {
  let loads = 0;
  const root = program(declared(() => loads++, []));
  for (const [argv, message] of [
    [['--interval', 'soon'], /^invalid --interval: invalid duration "soon"/],
    [['--interval', '0.5s'], /^invalid --interval "0.5s": at least 1s$/],
    [['--port', '65536'], /^invalid --port "65536": expected a whole number from 0 to 65535$/],
    [['--group', 'x'], /^invalid group id "x": expected a positive integer$/],
    [['--max-file-size', '12 parsecs'], /^invalid --max-file-size "12 parsecs": use a size such as 128MB/],
  ] as const) {
    await assert.rejects(root.parseAsync(['probe', '--name', 'x', ...argv], { from: 'user' }), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
  assert.equal(loads, 0);
});

test('a strict choice and a required option are refused by commander before the handler loads (exit 2 in main)', async () => {
  let loads = 0;
  const root = program(declared(() => loads++, []));
  await assert.rejects(root.parseAsync(['probe', '--name', 'x', '--method', 'PUT'], { from: 'user' }), { code: 'commander.invalidArgument' });
  await assert.rejects(root.parseAsync(['probe'], { from: 'user' }), { code: 'commander.missingMandatoryOptionValue' });
  assert.equal(loads, 0);
});
