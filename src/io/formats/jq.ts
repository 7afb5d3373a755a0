/**
 * --jq: the jq language itself (jq 1.8, compiled to WebAssembly by the jq-wasm package),
 * not a subset. It is loaded on first use only, and the wasm image comes embedded in the
 * module, so nothing is read from beside the bundle or fetched.
 *
 * jq runs in a worker thread (jq-worker.ts) so that what it prints streams: each chunk is
 * written before jq goes on, the first line shows while jq still works, and a program that
 * prints without end (`range(1e12)`) holds one chunk at a time. Its heap is bounded
 * (JQ_MEMORY_LIMIT): a program that needs more stops with a clear error, exit 2.
 *
 * Output is what `jq -r -c` prints (and `gh --jq`): a string result raw, any other value as
 * one line of compact JSON. `$ENV` and `env` are the process's environment; --arg and
 * --argjson bind variables as jq's own flags do; local time is the zone given (else TZ).
 *
 * jq goes on after an input fails; --jq stops there (a stream of records must not print past a
 * failed one). So the expression runs as `inputs | (EXPR)` over `-n`: an error then ends the
 * run, as it ends jq's only input. The expression is compiled alone first, so jq's messages
 * about it quote it as written.
 */
import { UsageError } from '../../errors.js';
import jqWorkerSource from 'trackctl:jq-worker' with { type: 'text' };
import type { JqWorkerData, JqWorkerMessage, JqWorkerRequest } from './jq-worker.js';

/** The most jq's heap may hold: the ceiling jq-wasm's build allows (256 MB). */
export const JQ_MEMORY_LIMIT = 256 * 1024 * 1024;

/** A jq failure, compile or run time: bad input for the command, exit 2, with jq's own message. */
export class JqError extends UsageError {}

/** --arg NAME VALUE (a string) or --argjson NAME JSON (a value), as jq's flags take them. */
export interface JqVariable {
  kind: 'arg' | 'argjson';
  name: string;
  value: string;
}

export interface JqOptions {
  /** --arg and --argjson, in the order given. */
  variables?: readonly JqVariable[];
  /** What `$ENV` and `env` see: the process's environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** The zone of localtime, mktime's inverse and strflocaltime (an IANA name); undefined: the system's. */
  zone?: string | undefined;
  /** Bytes; JQ_MEMORY_LIMIT unless a test wants less. */
  memoryLimit?: number;
}

/** Where a run's results go: stdout text (ended by the sink's own rules) and jq's messages. */
export interface JqSink {
  out(text: string): Promise<void>;
  warn(line: string): void;
  /** True once the reader has gone: jq stops. */
  closed(): boolean;
}

export interface JqProgram {
  /**
   * Runs the program over JSON texts, each one input (as jq reads a stream of values),
   * writing what it prints as it prints it. Stops at the first input that fails, with a
   * JqError after the output printed before it, as jq prints it. Runs asked for while one
   * is under way follow it, in the order asked.
   */
  run(inputs: readonly string[], sink: JqSink): Promise<void>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks --arg/--argjson before anything is sent: a name jq can bind, JSON that parses. */
export function checkVariables(variables: readonly JqVariable[]): void {
  for (const v of variables) {
    const flag = `--${v.kind}`;
    if (!NAME.test(v.name)) throw new UsageError(`${flag} ${v.name}: a variable name is letters, digits and _, not starting with a digit (used as $${v.name})`);
    if (v.kind === 'argjson') {
      try {
        JSON.parse(v.value);
      } catch (err) {
        throw new UsageError(`--argjson ${v.name}: not JSON: ${(err as Error).message}`, { cause: err });
      }
    }
  }
}

/** jq names its input after the file it read; the user gave it on stdin. */
function jqMessage(text: string): string {
  return text.replaceAll('(at /dev/stdin:', '(at <stdin>:');
}

/** A line-oriented reader of a byte stream: whole lines out, the rest kept (up to `hold` characters). */
class Lines {
  private readonly decoder = new TextDecoder();
  private tail = '';
  constructor(private readonly hold: number) {}

  /** Text ending at a line end (or everything, when the line runs longer than `hold`). */
  push(bytes: Uint8Array): string {
    const text = this.tail + this.decoder.decode(bytes, { stream: true });
    const end = text.lastIndexOf('\n') + 1;
    if (text.length - end > this.hold) {
      this.tail = '';
      return text;
    }
    this.tail = text.slice(end);
    return text.slice(0, end);
  }

  end(): string {
    const rest = this.tail + this.decoder.decode();
    this.tail = '';
    return rest;
  }
}

/** Keeps jq's stderr apart: its messages (warnings, debug) and, from `jq: error` on, the error. */
class Messages {
  private readonly lines = new Lines(64 * 1024);
  private held: string[] = [];
  private heldLength = 0;
  readonly error: string[] = [];

  constructor(private readonly warn: (line: string) => void) {}

  push(bytes: Uint8Array): void {
    this.take(this.lines.push(bytes));
  }

  /** Warnings held back are printed (a run that fails without `jq: error` makes the last of them its error). */
  release(): void {
    for (const line of this.held) this.warn(line);
    this.held = [];
    this.heldLength = 0;
  }

  /** The run ended with `exitCode`: its error message, if it failed. */
  end(exitCode: number): string | undefined {
    this.take(this.lines.end());
    if (this.error.length > 0) {
      this.release();
      return this.error.join('\n');
    }
    if (exitCode === 0) {
      this.release();
      return undefined;
    }
    // halt_error and the like: what jq printed last is what it failed with.
    const message = this.held.join('\n');
    this.held = [];
    return message || `jq exited with status ${exitCode}`;
  }

  private take(text: string): void {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const message = jqMessage(line);
      if (this.error.length > 0 || message.startsWith('jq: error')) {
        // jq prints one error; keep a bounded excerpt of anything after it.
        if (this.error.length < 20) this.error.push(message);
        continue;
      }
      this.held.push(message);
      this.heldLength += message.length;
      if (this.heldLength > 64 * 1024) this.release();
    }
  }
}

/** jq's command line before the program: compact raw output flushed per result, the variables. */
function jqFlags(variables: readonly JqVariable[]): string[] {
  return ['-r', '-c', '--unbuffered', ...variables.flatMap((v) => [`--${v.kind}`, v.name, v.value])];
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Loads jq in its thread and checks the expression compiles (with the variables bound). */
export async function compileJq(expression: string, options: JqOptions): Promise<JqProgram> {
  if (expression.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq \'.[].name\'');
  const variables = options.variables ?? [];
  checkVariables(variables);
  const memoryLimit = options.memoryLimit ?? JQ_MEMORY_LIMIT;
  const [{ Worker }, { setFlagsFromString }] = await Promise.all([import('node:worker_threads'), import('node:v8')]);
  // jq's image is ~1 MB of WebAssembly of which a command runs a small part: compile each
  // function when first called, and with the baseline compiler only. V8 would otherwise
  // compile all of it, then again with its optimising tier in the background, which the
  // process waits for before it can exit: measured here, twice the CPU and 0.6 s more
  // wall time per run. The flags are the process's, so the worker thread has them too
  // (scripts/build.mjs says why this is done late, not at start-up).
  // The launcher keeps V8's compiled code before the flags change (bin/trackctl.js, codeCache).
  (globalThis as Record<symbol, (() => void) | undefined>)[Symbol.for('trackctl.v8-flags')]?.();
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--wasm-lazy-compilation');

  const control = new SharedArrayBuffer(4);
  const flag = new Int32Array(control);
  const workerData: JqWorkerData = {
    control,
    flags: jqFlags(variables),
    expression,
    // A newline before the closing parenthesis: the expression may end in a comment.
    program: `inputs | (${expression}\n)`,
    env: definedEnv(options.env),
    zone: options.zone,
    memoryLimit,
  };
  const worker = new Worker(jqWorkerSource, { eval: true, workerData });
  let listener: ((message: JqWorkerMessage) => void) | undefined;
  let failure: Error | undefined;
  worker.on('message', (message: JqWorkerMessage) => listener?.(message));
  worker.on('error', (err) => {
    failure ??= err;
    listener?.({ type: 'done', exitCode: 1, outOfMemory: false, crashed: err.message });
  });

  const ready = await new Promise<JqWorkerMessage>((resolve) => {
    listener = resolve;
  });
  if (ready.type === 'ready' && ready.error !== undefined) {
    void worker.terminate();
    throw new JqError(jqMessage(ready.error));
  }
  if (failure) throw new JqError(`jq could not start: ${failure.message}`, { cause: failure });
  // Idle between runs, the thread must not keep the process alive.
  worker.unref();

  const release = (state: 1 | 2): void => {
    Atomics.store(flag, 0, state);
    Atomics.notify(flag, 0);
  };
  let dead: Error | undefined;
  // The reader left and jq was stopped mid-run: nothing more is run or printed.
  let stopped = false;

  const runOne = (input: string, sink: JqSink): Promise<void> => {
    if (dead) return Promise.reject(dead);
    if (stopped) return Promise.resolve();
    const stdout = new Lines(64 * 1024);
    const messages = new Messages((line) => sink.warn(line));
    worker.ref();
    return new Promise<void>((resolve, reject) => {
      // Chunks are handled one after another: each is written before jq is let go on.
      let queue = Promise.resolve();
      listener = (message) => {
        if (message.type === 'done') {
          worker.unref();
          if (message.exitCode === 130) stopped = true;
        }
        queue = queue.then(async () => {
          if (message.type === 'chunk') {
            if (message.fd === 2) messages.push(message.bytes);
            else {
              messages.release();
              const text = stdout.push(message.bytes);
              if (text !== '') await sink.out(text);
            }
            release(sink.closed() ? 2 : 1);
            return;
          }
          if (message.type !== 'done') return;
          if (message.outOfMemory || message.crashed !== undefined) {
            dead = message.outOfMemory
              ? new JqError(`--jq: the expression used more than ${Math.round(memoryLimit / (1024 * 1024))} MB of memory; jq stopped (with -o ndjson it runs on each record alone)`)
              : new JqError(`--jq: jq stopped: ${message.crashed}`);
            void worker.terminate();
            messages.release();
            throw dead;
          }
          const rest = stdout.end();
          if (rest !== '' && !sink.closed()) await sink.out(rest.endsWith('\n') ? rest : `${rest}\n`);
          const error = stopped ? undefined : messages.end(message.exitCode);
          if (error !== undefined) throw new JqError(error);
        });
        queue.then(() => message.type === 'done' && resolve()).catch((err: unknown) => {
          release(2);
          reject(err instanceof Error ? err : new Error(String(err)));
        });
      };
      worker.postMessage({ type: 'run', input } satisfies JqWorkerRequest);
    });
  };

  // One thread runs one program at a time: runs asked for meanwhile (the streams of many units
  // that share the program) wait their turn, in the order asked.
  let turn: Promise<void> = Promise.resolve();
  return {
    run: (inputs, sink) => {
      if (inputs.length === 0) return Promise.resolve();
      const ran = turn.then(() => runOne(inputs.join('\n'), sink));
      turn = ran.catch(() => undefined);
      return ran;
    },
  };
}
