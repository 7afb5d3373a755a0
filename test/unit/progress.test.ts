import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/io/delivery/streams.js';
import { SHOW_AFTER_MS, startProgress } from '../../src/io/terminal/progress.js';

/** An IO whose stderr is a "terminal" of `columns` cells; `written()` is everything sent to it. */
function terminalIO(columns: number | undefined): IO & { written(): string } {
  const stderr = Object.assign(new PassThrough(), { columns, isTTY: false });
  let written = '';
  stderr.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return {
    stdout: new PassThrough(), stderr, stdin: new PassThrough(),
    stdoutIsTTY: false, stderrIsTTY: true, stdinIsTTY: false,
    columns: () => columns ?? 80,
    out: async () => undefined,
    err: (text) => void stderr.write(`${text}\n`),
    flush: async () => undefined,
    written: () => written,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function spinFor(io: IO, ms: number): Promise<void> {
  const progress = startProgress(io, { label: 'delete devices', total: 10, env: { TERM: 'xterm' } });
  for (let i = 0; i < 10; i++) {
    await sleep(ms / 10);
    progress.tick();
  }
  progress.stop();
}

test('a terminal of known width shows the progress line on stderr', async () => {
  const io = terminalIO(80);
  await spinFor(io, SHOW_AFTER_MS + 500);
  assert.match(io.written(), /delete devices \d+\/10/);
});

test('a terminal that reports 0 columns (or none) gets no spinner at all, not a flood of line clearing', async () => {
  for (const columns of [0, undefined]) {
    const io = terminalIO(columns);
    await spinFor(io, SHOW_AFTER_MS + 500);
    assert.equal(io.written(), '', `columns ${String(columns)}`);
  }
});
