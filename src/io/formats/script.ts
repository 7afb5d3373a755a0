/**
 * How --jq, --template and -o custom-columns combine with the output format, decided
 * (and the expression compiled, the template parsed, the columns file read) before a
 * command sends anything, so a mistake is exit 2 with nothing done.
 *
 * - --jq and --template work on JSON, as gh's do: they imply -o json (the whole document:
 *   a list is one array); with -o ndjson they run once per record. Any other -o, or both
 *   flags at once, is a usage error. A table format from TRACKCTL_OUTPUT or the profile
 *   gives way to them (only an explicit -o is a conflict).
 * - -o custom-columns=… and -o custom-columns-file=FILE draw a table of the given paths of
 *   each record of the JSON output, as the table format draws (TSV when piped).
 */
import { UsageError } from '../../errors.js';
import { parseCustomColumns, parseCustomColumnsFile } from './render/custom-columns.js';
import type { CustomColumn, Script } from './render/types.js';
import type { JqVariable } from './jq.js';

export interface ScriptRequest {
  jq?: string | undefined;
  /** --arg and --argjson, for --jq. */
  variables?: readonly JqVariable[];
  /** What jq's `$ENV` and `env` see. */
  env?: Readonly<Record<string, string | undefined>>;
  /** jq's local time zone (IANA); undefined: the system's. */
  zone?: string | undefined;
  template?: string | undefined;
  /** -o as given on the command line. */
  flag?: string | undefined;
  /** The output format asked for from any source (flag, TRACKCTL_OUTPUT, profile). */
  requested?: string | undefined;
  fields?: boolean;
  raw?: boolean;
  /** For templates: terminal, colour and clock. */
  tty: boolean;
  color: boolean;
  now: () => number;
}

export interface ResolvedScript {
  script: Script;
  /** The format the command should produce for the script: json (one document) or ndjson (each record). */
  format: 'json' | 'ndjson';
}

const COLUMNS_PREFIX = /^custom-columns(-file)?=/i;

/** -o custom-columns… is not a format of its own: commands list plain formats only. */
export function isCustomColumns(format: string | undefined): boolean {
  return format !== undefined && COLUMNS_PREFIX.test(format.trim());
}

/** A columns file is a line per column; /dev/zero stops here. */
const MAX_COLUMNS_FILE_BYTES = 1048576;

async function customColumns(value: string): Promise<CustomColumn[]> {
  const [, file] = COLUMNS_PREFIX.exec(value) ?? [];
  const spec = value.slice(value.indexOf('=') + 1);
  if (file === undefined) return parseCustomColumns(spec);
  if (spec.trim() === '') throw new UsageError('-o custom-columns-file needs a file name, e.g. -o custom-columns-file=columns.txt');
  const { limitText, readFileUpTo } = await import('../../bounded-read.js');
  let text: string | undefined;
  try {
    text = await readFileUpTo(spec, MAX_COLUMNS_FILE_BYTES);
  } catch (err) {
    throw new UsageError(`cannot read -o custom-columns-file ${spec}: ${(err as Error).message}`, { cause: err });
  }
  if (text === undefined) throw new UsageError(`-o custom-columns-file ${spec} is ${limitText(MAX_COLUMNS_FILE_BYTES)}`);
  return parseCustomColumnsFile(text, spec);
}

/** The script asked for, if any; `allowed` are the command's formats (a script needs its JSON). */
export async function resolveScript(req: ScriptRequest, allowed: readonly string[]): Promise<ResolvedScript | undefined> {
  const columns = isCustomColumns(req.requested) ? req.requested!.trim() : undefined;
  const asked = [req.jq !== undefined && '--jq', req.template !== undefined && '--template', columns !== undefined && '-o custom-columns'].filter(
    (name): name is string => name !== false,
  );
  const variables = req.variables ?? [];
  if (variables.length > 0 && req.jq === undefined) throw new UsageError(`--${variables[0]!.kind} binds a variable for --jq; give --jq too`);
  if (asked.length === 0) return undefined;
  if (asked.length > 1) throw new UsageError(`${asked.join(' and ')} cannot be used together: each one prints the output`);
  const what = asked[0]!;
  if (!allowed.includes('json')) throw new UsageError(`${what} works on JSON output, which this command does not print`);
  if (columns !== undefined) {
    if (req.fields) throw new UsageError('--fields does not apply to -o custom-columns: the columns are the fields');
    if (req.raw) throw new UsageError('--raw cannot be used with -o custom-columns; use --jq to pick from the reply');
    return { script: { kind: 'columns', columns: await customColumns(columns) }, format: 'json' };
  }
  const flag = req.flag?.trim().toLowerCase();
  if (flag !== undefined && flag !== 'json' && flag !== 'ndjson') {
    throw new UsageError(`${what} works on JSON: use it alone (the whole JSON document) or with -o ndjson (each record), not with -o ${req.flag}`);
  }
  const format = flag === 'ndjson' && allowed.includes('ndjson') ? 'ndjson' : 'json';
  if (req.jq !== undefined) {
    const { compileJq } = await import('./jq.js');
    return { script: { kind: 'jq', program: await compileJq(req.jq, { variables, env: req.env ?? {}, zone: req.zone }) }, format };
  }
  if (req.template!.trim() === '') throw new UsageError('--template needs a template, e.g. --template \'{{#each .}}{{name}}{{"\\n"}}{{/each}}\'');
  const { compileTemplate } = await import('./template.js');
  return { script: { kind: 'template', template: await compileTemplate(req.template!, req) }, format };
}
