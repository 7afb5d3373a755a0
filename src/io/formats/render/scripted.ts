/**
 * Output through --jq or --template: the JSON document a command prints with -o json
 * (a list as one array, a record as one object), or each record of a stream (-o ndjson,
 * watch). jq's results print as `jq -r -c` prints them, as jq prints them; a template's
 * text as it renders, ending in a newline.
 *
 * Text from the service is stripped of control characters before the script sees it (the
 * strings of the document, keys included; template.ts does it for templates), on a terminal
 * or not: `--jq '.[].name'` piped to a pager or a log prints names, never their escape
 * sequences or bidi overrides. What the expression or the template adds itself stays (a
 * colour it asks for). Only --raw, which asks for the reply as the service sent it, hands the
 * script the body unchanged. On a terminal jq's output is stripped as well, whatever made it.
 */
import { UsageError } from '../../../errors.js';
import { sanitizeText, sanitizeValue } from '../../../sanitize.js';
import type { IO } from '../../delivery/streams.js';
import { compactJson } from './json.js';
import type { OutputOptions, Rec, RecordStream, Script } from './types.js';

type TextScript = Exclude<Script, { kind: 'columns' }>;

/** Records a stream hands jq in one run at most (each run compiles the program again). */
const JQ_BATCH = 500;

/** A template's text, ending in a newline unless it is empty. */
function lineEnded(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** Runs jq over JSON texts, printing what it prints as it prints it (and its messages), even when it then fails. */
async function runJq(script: Extract<Script, { kind: 'jq' }>, inputs: readonly string[], opts: Pick<OutputOptions, 'io' | 'tty'>): Promise<void> {
  const { io, tty } = opts;
  // A reader that went away (`| head`) fails a write: jq stops rather than print for no one.
  // (process.stdout is never destroyed, so the failure is heard here.)
  let failed = false;
  const onError = (): void => void (failed = true);
  io.stdout.on('error', onError);
  try {
    await script.program.run(inputs, {
      out: (text) => io.out(tty ? sanitizeText(text) : text),
      warn: (line) => io.err(sanitizeText(line)),
      closed: () => failed || io.stdout.destroyed,
    });
  } finally {
    io.stdout.off('error', onError);
  }
}

/** The whole document through the script. */
export async function renderScripted(document: unknown, script: TextScript, opts: Pick<OutputOptions, 'io' | 'tty'>): Promise<void> {
  if (script.kind === 'jq') return runJq(script, [compactJson(sanitizeValue(document))], opts);
  const text = lineEnded(script.template(document));
  if (text !== '') await opts.io.out(text);
}

/** --raw with --jq or --template: the reply body as sent is the document. */
export async function renderRawScripted(body: string, script: TextScript, opts: { io: IO; tty: boolean }): Promise<void> {
  if (script.kind === 'jq') return runJq(script, [body], opts);
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw new UsageError('--template needs a JSON reply; this one is not JSON');
  }
  return renderScripted(document, script, opts);
}

/** -o json: the document is every record, so it is rendered when the stream ends. */
class DocumentStream implements RecordStream {
  private readonly records: Rec[] = [];
  constructor(
    private readonly script: TextScript,
    private readonly opts: OutputOptions,
  ) {}

  async write(rec: Rec): Promise<void> {
    this.records.push(rec);
  }

  async end(): Promise<void> {
    await renderScripted(this.records, this.script, this.opts);
  }
}

/**
 * -o ndjson and watch: each record on its own. jq runs over a batch of records at once: the
 * records written until the writer pauses (a reply's chunk, a round of watch) or JQ_BATCH.
 */
class RecordScriptStream implements RecordStream {
  private batch: string[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private running: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly script: TextScript,
    private readonly opts: OutputOptions,
  ) {}

  async write(rec: Rec): Promise<void> {
    this.check();
    if (this.script.kind === 'template') {
      const text = lineEnded(this.script.template(rec));
      if (text !== '') await this.opts.io.out(text);
      return;
    }
    this.batch.push(compactJson(sanitizeValue(rec)));
    if (this.batch.length >= JQ_BATCH) return this.flush();
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      this.next().catch(() => undefined); // kept in this.failure, thrown at the next write or flush
    });
  }

  async flush(): Promise<void> {
    clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.check();
    await this.next();
  }

  /** The batch so far, run after the batches before it (not after one that failed: a stream stops at its first failed record). */
  private next(): Promise<void> {
    const ran = this.running.then(() => {
      this.check();
      return this.runBatch();
    });
    this.running = ran.catch((err: unknown) => void (this.failure ??= err));
    return ran;
  }

  end(): Promise<void> {
    return this.flush();
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private async runBatch(): Promise<void> {
    if (this.script.kind !== 'jq' || this.batch.length === 0) return;
    const inputs = this.batch;
    this.batch = [];
    await runJq(this.script, inputs, this.opts);
  }
}

/** A stream through the script: per record with -o ndjson, else the whole document at the end. */
export function openScriptedStream(script: TextScript, opts: OutputOptions): RecordStream {
  return opts.format === 'ndjson' ? new RecordScriptStream(script, opts) : new DocumentStream(script, opts);
}
