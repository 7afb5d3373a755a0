/**
 * Reading a fleet file: YAML (the default; JSON is YAML too) or JSON by extension,
 * from a path or stdin ("-"). Syntax errors and every validation problem come back
 * together as one usage error (exit 2) before anything is sent.
 */
import type { Readable } from 'node:stream';
import { limitText, readFileUpTo, readStreamUpTo } from '../bounded-read.js';
import { UsageError } from '../errors.js';
import type { Fleet, Problem } from './format.js';
import { validateFleet } from './validate.js';
import { loadYaml } from './yaml.js';

/** A fleet file is a few thousand units (kilobytes to a few MB); /dev/zero or an endless pipe stops here. */
const MAX_FLEET_FILE_BYTES = 64 * 1048576;

export async function readSource(file: string, stdin: Readable): Promise<string> {
  let text: string | undefined;
  try {
    text = file === '-' ? await readStreamUpTo(stdin, MAX_FLEET_FILE_BYTES) : await readFileUpTo(file, MAX_FLEET_FILE_BYTES);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(code ?? err)}`);
  }
  if (text === undefined) throw new UsageError(`fleet file ${file === '-' ? '(stdin)' : file} is ${limitText(MAX_FLEET_FILE_BYTES)}`);
  return text;
}

/** Text → document, or the syntax problems (with line and column). */
export async function parseSource(text: string, file: string): Promise<{ doc: unknown; problems: Problem[] }> {
  if (/\.json$/i.test(file)) {
    try {
      return { doc: JSON.parse(text) as unknown, problems: [] };
    } catch (err) {
      return { doc: undefined, problems: [{ path: '(file)', message: `not valid JSON: ${(err as Error).message}` }] };
    }
  }
  const yaml = await loadYaml();
  const document = yaml.parseDocument(text);
  if (document.errors.length > 0) {
    return {
      doc: undefined,
      problems: document.errors.map((e) => {
        const at = e.linePos?.[0];
        return { path: at ? `line ${at.line}:${at.col}` : '(file)', message: (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '') };
      }),
    };
  }
  return { doc: document.toJS() as unknown, problems: [] };
}

export function problemsError(file: string, problems: Problem[]): UsageError {
  const lines = problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
  const n = problems.length;
  return new UsageError(`${file}: ${n} problem${n === 1 ? '' : 's'}; nothing was changed\n${lines}`);
}

export async function loadFleet(file: string, stdin: Readable): Promise<Fleet> {
  const text = await readSource(file, stdin);
  const { doc, problems } = await parseSource(text, file);
  if (problems.length > 0) throw problemsError(file === '-' ? '(stdin)' : file, problems);
  const checked = validateFleet(doc);
  if (checked.problems.length > 0) throw problemsError(file === '-' ? '(stdin)' : file, checked.problems);
  return checked.fleet;
}
