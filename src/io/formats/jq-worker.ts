/**
 * The thread that runs jq (see jq.ts). jq-wasm runs a program to its end in one synchronous
 * call and hands back all it printed: `range(1e7)` held 1.18 GB before a line came out. Here
 * the WebAssembly imports jq writes and allocates through are wrapped before jq-wasm sees them:
 *
 * - what jq writes to stdout and stderr goes to the main thread in chunks, and this thread
 *   waits (Atomics.wait) until each chunk is written: jq runs no further ahead of its reader
 *   than one chunk;
 * - the heap grows up to a limit, and an allocation past it ends the run with a flag the main
 *   thread turns into a clear error (jq's own reaction is abort(), which Emscripten reports as
 *   "Aborted(). Build with -sASSERTIONS for more info");
 * - `$ENV` and `env` read the process's real environment (not Emscripten's seven made-up
 *   variables), and local time is the zone asked for (jq-zone.ts).
 *
 * This file is bundled on its own, as text, into the module that starts the thread
 * (scripts/jq-worker-text.mjs): it needs no file beside the bundle, in a single executable too.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadJq } from 'jq-wasm';
import jqWasmImage from 'jq-wasm/jq.wasm' with { type: 'bytes' };
import { loadZone, localTime, makeTime, type BrokenDown } from './jq-zone.js';

export interface JqWorkerData {
  /** [0]: 0 while a chunk waits to be written, 1 once written, 2 to stop the run. */
  control: SharedArrayBuffer;
  /** jq's command line before the program: flags and --arg/--argjson pairs (-n is added to run). */
  flags: string[];
  /** The expression as given: compiled first, for jq's own messages about it. */
  expression: string;
  /** What runs: the expression over each input (jq.ts says why). */
  program: string;
  env: Record<string, string>;
  zone: string | undefined;
  /** The most the heap may grow to, in bytes. */
  memoryLimit: number;
}

export type JqWorkerMessage =
  | { type: 'ready'; error?: string }
  | { type: 'chunk'; fd: 1 | 2; bytes: Uint8Array }
  | { type: 'done'; exitCode: number; outOfMemory: boolean; crashed?: string };

export type JqWorkerRequest = { type: 'run'; input: string };

/** Bytes jq may print before the main thread has written them. */
const CHUNK = 64 * 1024;
/** A chunk goes out sooner when jq prints slowly, so a line shows while jq works on. */
const CHUNK_DELAY_MS = 50;

const data = workerData as JqWorkerData;
const control = new Int32Array(data.control);
const port = parentPort!;
const post = (message: JqWorkerMessage): void => port.postMessage(message);

class Stopped extends Error {}

// Emscripten prints "Aborted()" with console.error on the way out of an abort: the main thread says what happened.
console.error = () => undefined;

type Fn = (...args: number[]) => unknown;

// The WebAssembly API as used here (the project's lib has no WebAssembly types).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
type WasmImports = Record<string, Record<string, unknown>>;
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: WasmImports) => WasmInstance;
  Memory: abstract new (...args: never[]) => WasmMemory;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let memory: WasmMemory | undefined;
let outOfMemory = false;
const pending: Record<1 | 2, Uint8Array[]> = { 1: [], 2: [] };
const pendingBytes: Record<1 | 2, number> = { 1: 0, 2: 0 };
let lastSent = Date.now();
/** False while the expression is compiled: its messages are kept and sent as the answer. */
let streaming = false;

function send(fd: 1 | 2): void {
  if (pendingBytes[fd] === 0) return;
  const bytes = new Uint8Array(pendingBytes[fd]);
  let at = 0;
  for (const part of pending[fd]) {
    bytes.set(part, at);
    at += part.length;
  }
  pending[fd] = [];
  pendingBytes[fd] = 0;
  Atomics.store(control, 0, 0);
  post({ type: 'chunk', fd, bytes });
  Atomics.wait(control, 0, 0);
  lastSent = Date.now();
  if (Atomics.load(control, 0) === 2) throw new Stopped();
}

function sendAll(): void {
  send(2);
  send(1);
}

/** fd_write(fd, iov, iovcnt, pnum) for stdout and stderr: the bytes are queued for the main thread. */
function writeOut(original: Fn): Fn {
  return (fd, iov, iovcnt, pnum) => {
    if ((fd !== 1 && fd !== 2) || memory === undefined) return original(fd, iov, iovcnt, pnum);
    const view = new DataView(memory.buffer);
    let written = 0;
    for (let i = 0; i < iovcnt; i++) {
      const ptr = view.getUint32(iov + i * 8, true);
      const len = view.getUint32(iov + i * 8 + 4, true);
      if (len === 0) continue;
      pending[fd].push(new Uint8Array(memory.buffer, ptr, len).slice());
      pendingBytes[fd] += len;
      written += len;
    }
    view.setUint32(pnum, written, true);
    // stderr first: a debug message shows before the output that follows it.
    if (streaming && (pendingBytes[1] + pendingBytes[2] >= CHUNK || Date.now() - lastSent >= CHUNK_DELAY_MS)) sendAll();
    return 0;
  };
}

/** emscripten_resize_heap(size): refused past the limit (jq then aborts, and the flag says why). */
function boundedHeap(original: Fn): Fn {
  return (requested) => {
    if (requested >>> 0 > data.memoryLimit) {
      outOfMemory = true;
      return 0;
    }
    return original(requested);
  };
}

const envStrings = Object.entries(data.env).map(([name, value]) => new TextEncoder().encode(`${name}=${value}\0`));

function environSizes(count: number, size: number): number {
  const view = new DataView(memory!.buffer);
  view.setUint32(count, envStrings.length, true);
  view.setUint32(size, envStrings.reduce((sum, s) => sum + s.length, 0), true);
  return 0;
}

function environGet(environ: number, buffer: number): number {
  const view = new DataView(memory!.buffer);
  let at = buffer;
  envStrings.forEach((s, i) => {
    view.setUint32(environ + i * 4, at, true);
    new Uint8Array(memory!.buffer).set(s, at);
    at += s.length;
  });
  return 0;
}

// Local time. struct tm on wasm32: nine ints, then tm_gmtoff (long) and tm_zone (a pointer).
const zone = loadZone(data.zone);
let zoneNames: [number, number] = [0, 0];

function writeName(at: number, name: string): void {
  const bytes = new TextEncoder().encode(name).subarray(0, 16);
  const heap = new Uint8Array(memory!.buffer);
  heap.set(bytes, at);
  heap[at + bytes.length] = 0;
}

/** _tzset_js(timezone, daylight, std_name, dst_name): the buffers become tzname[0] and [1]. */
function tzset(timezone: number, daylight: number, standardName: number, summerName: number): void {
  const view = new DataView(memory!.buffer);
  view.setInt32(timezone, -zone.standard * 60, true);
  view.setInt32(daylight, zone.summer === undefined ? 0 : 1, true);
  writeName(standardName, zone.standardName);
  writeName(summerName, zone.summerName);
  zoneNames = [standardName, summerName];
}

function writeTm(at: number, tm: BrokenDown): void {
  const view = new DataView(memory!.buffer);
  [tm.sec, tm.min, tm.hour, tm.mday, tm.mon, tm.year, tm.wday, tm.yday, tm.isdst, tm.gmtoff].forEach((n, i) => view.setInt32(at + i * 4, n, true));
  view.setUint32(at + 40, zoneNames[tm.isdst > 0 ? 1 : 0], true);
}

/** _localtime_js(time, tm) */
function localtime(time: bigint, at: number): void {
  writeTm(at, localTime(zone, Number(time)));
}

/** _mktime_js(tm): also sets the offset and the zone's name, which strftime's %z, %s and %Z read. */
function mktime(at: number): bigint {
  const view = new DataView(memory!.buffer);
  const field = (i: number): number => view.getInt32(at + i * 4, true);
  const seconds = makeTime(zone, { sec: field(0), min: field(1), hour: field(2), mday: field(3), mon: field(4), year: field(5), isdst: field(8) });
  if (seconds === undefined) return -1n;
  writeTm(at, localTime(zone, seconds));
  return BigInt(seconds);
}

/** Where the image's own "GMT" string lies in memory (0: none), found on first use. */
let gmtName: number | undefined;

/** _timegm_js(tm): as jq-wasm's, and names the zone too, so strftime's %Z prints GMT (as glibc's does) rather than fail. */
function timegm(original: Fn): Fn {
  return (at) => {
    const seconds = original(at);
    if (gmtName === undefined) {
      const heap = new Uint8Array(memory!.buffer, 0, Math.min(memory!.buffer.byteLength, 4 << 20));
      const found = Buffer.from(heap.buffer, 0, heap.length).indexOf('\0GMT\0', 0, 'latin1');
      gmtName = found < 0 ? 0 : found + 1;
    }
    const view = new DataView(memory!.buffer);
    view.setInt32(at + 32, 0, true);
    view.setInt32(at + 36, 0, true);
    view.setUint32(at + 40, gmtName, true);
    return seconds;
  };
}

/** The glue's functions by their names (the import keys are minified). */
const WRAPPED: Record<string, (original: Fn) => unknown> = {
  _fd_write: writeOut,
  _emscripten_resize_heap: boundedHeap,
  _environ_sizes_get: () => environSizes,
  _environ_get: () => environGet,
  __tzset_js: () => tzset,
  __localtime_js: () => localtime,
  __mktime_js: () => mktime,
  __timegm_js: timegm,
};

function wrapImports(imports: WasmImports): WasmImports {
  const found = new Set<string>();
  const wrapped: WasmImports = {};
  for (const [moduleName, fields] of Object.entries(imports)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      const name = typeof value === 'function' ? value.name.replace(/\d+$/, '') : '';
      const wrap = WRAPPED[name];
      if (wrap !== undefined) found.add(name);
      out[key] = wrap !== undefined ? wrap(value as Fn) : value;
    }
    wrapped[moduleName] = out;
  }
  const missing = Object.keys(WRAPPED).filter((name) => !found.has(name));
  // A jq-wasm whose glue is shaped otherwise would run unbounded: refuse it (a test catches it on upgrade).
  if (missing.length > 0) throw new Error(`jq-wasm's glue has no ${missing.join(', ')}`);
  return wrapped;
}

const image = jqWasmImage as unknown as Uint8Array;

async function start(): Promise<void> {
  const jq = await loadJq({
    instantiateWasm: (imports: unknown, onSuccess: (instance: never, module: never) => void) => {
      const module = new Wasm.Module(image);
      const instance = new Wasm.Instance(module, wrapImports(imports as WasmImports));
      memory = Object.values(instance.exports).find((e): e is WasmMemory => e instanceof Wasm.Memory);
      onSuccess(instance as never, module as never);
    },
  });

  const run = (input: string, program: string): JqWorkerMessage => {
    outOfMemory = false;
    lastSent = Date.now();
    try {
      // -n: the program reads its inputs itself (jq.ts says why).
      const result = jq.raw(input, program, ['-n', ...data.flags]);
      sendAll();
      return { type: 'done', exitCode: result.exitCode, outOfMemory: false };
    } catch (err) {
      if (err instanceof Stopped) return { type: 'done', exitCode: 130, outOfMemory: false };
      // After an abort the instance is unusable: the main thread ends this thread.
      pending[1] = [];
      pendingBytes[1] = 0;
      try {
        send(2);
      } catch {
        // Stopped while the last messages went out.
      }
      return { type: 'done', exitCode: 1, outOfMemory, crashed: outOfMemory ? undefined : String(err) };
    }
  };

  // jq with no input compiles the program and runs nothing.
  const check = jq.raw('', data.expression, data.flags);
  const message = new TextDecoder().decode(Buffer.concat(pending[2])).trim();
  pending[1] = [];
  pending[2] = [];
  pendingBytes[1] = pendingBytes[2] = 0;
  streaming = true;
  port.on('message', (request: JqWorkerRequest) => post(run(request.input, data.program)));
  post(check.exitCode === 0 ? { type: 'ready' } : { type: 'ready', error: message || `jq exited with status ${check.exitCode}` });
}

void start().catch((err: unknown) => post({ type: 'ready', error: `jq could not start: ${String(err)}` }));
