/**
 * --jq: the jq language itself (jq 1.8, compiled to WebAssembly by the jq-wasm package),
 * not a subset. It is loaded on first use only (~1 MB of WebAssembly, 100-300 ms), and
 * the wasm image comes embedded in the module (`jq-wasm/inline`), so nothing is read
 * from beside the bundle or fetched.
 *
 * Output is what `jq -r -c` prints (and `gh --jq`): a string result raw, any other value
 * as one line of compact JSON. jq is asked for compact JSON (-c) and the strings are
 * decoded here, because jq-wasm trims the whole of stdout: with -r a result's leading or
 * trailing blanks would be lost, while a line of compact JSON never has any.
 */
import { UsageError } from '../errors.js';

type JqHandle = Awaited<ReturnType<typeof import('jq-wasm/inline').loadJq>>;

let handle: Promise<JqHandle> | undefined;

function loadHandle(): Promise<JqHandle> {
  handle ??= (async () => {
    // jq's image is ~1 MB of WebAssembly of which a command runs a small part: compile each
    // function when first called, and with the baseline compiler only. V8 would otherwise
    // compile all of it, then again with its optimising tier in the background, which the
    // process waits for before it can exit: measured here, twice the CPU and 0.6 s more
    // wall time per run, and slower even over 60,000 records in one run (2.2-3.4 s against
    // 1.3 s: the optimising compile competes for the CPU). undici's parser sets
    // --liftoff-only too (scripts/build.mjs says why this is done late, not at start-up).
    const { setFlagsFromString } = await import('node:v8');
    setFlagsFromString('--liftoff-only');
    setFlagsFromString('--wasm-lazy-compilation');
    const { loadJq } = await import('jq-wasm/inline');
    return loadJq();
  })();
  return handle;
}

/** A jq failure, compile or run time: bad input for the command, exit 2, with jq's own message. */
export class JqError extends UsageError {}

/** What one run printed: the text for stdout, jq's warnings (debug, stderr) and, when it failed, jq's message. */
export interface JqOutput {
  text: string;
  warnings: string[];
  error?: string;
}

/** jq names its input after the file it read; the user gave it on stdin. */
function jqMessage(stderr: string): string {
  return stderr.replaceAll('(at /dev/stdin:', '(at <stdin>:');
}

/** One line of `jq -c` → what `jq -r -c` prints for it. */
function rawLine(line: string): string {
  return line.startsWith('"') ? (JSON.parse(line) as string) : line;
}

export interface JqProgram {
  /**
   * Runs the program over JSON texts, each one input (as jq reads a stream of values).
   * Stops at the first input that fails: its earlier outputs are kept, as jq prints them
   * before its error.
   */
  run(inputs: readonly string[]): JqOutput;
}

/** Loads jq and checks the expression compiles (jq with no input compiles and runs nothing). */
export async function compileJq(expression: string): Promise<JqProgram> {
  if (expression.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq \'.[].name\'');
  const jq = await loadHandle();
  const check = jq.raw('', expression, ['-c']);
  if (check.exitCode !== 0) throw new JqError(jqMessage(check.stderr || `jq exited with status ${check.exitCode}`));

  const once = (input: string): JqOutput => {
    const result = jq.raw(input, expression, ['-c']);
    const text = result.stdout === '' ? '' : `${result.stdout.split('\n').map(rawLine).join('\n')}\n`;
    // Over several inputs jq's status is that of the last one: an error shows by its message.
    const messages = result.stderr === '' ? [] : jqMessage(result.stderr).split('\n');
    const errorAt = messages.findIndex((line) => line.startsWith('jq: error'));
    if (result.exitCode === 0 && errorAt < 0) return { text, warnings: messages };
    if (errorAt < 0) return { text, warnings: [], error: messages.join('\n') || `jq exited with status ${result.exitCode}` };
    return { text, warnings: messages.slice(0, errorAt), error: messages.slice(errorAt).join('\n') };
  };

  return {
    run(inputs) {
      if (inputs.length === 0) return { text: '', warnings: [] };
      // One call for many inputs: each call compiles the program and jq's builtins again (a few ms).
      const all = once(inputs.join('\n'));
      if (all.error === undefined || inputs.length === 1) return all;
      // jq goes on after an input fails; --jq stops there. Find it, one input at a time.
      let text = '';
      const warnings: string[] = [];
      for (const input of inputs) {
        const one = once(input);
        text += one.text;
        warnings.push(...one.warnings);
        if (one.error !== undefined) return { text, warnings, error: one.error };
      }
      return all;
    },
  };
}
