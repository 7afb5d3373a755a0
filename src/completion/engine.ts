/**
 * The completion engine: walks the commander tree along the words typed so far
 * and says what may come next. Pure: no I/O. When the next word is an id, it
 * names the kind and leaves fetching to the caller (ids.ts), so completing a
 * command or a flag never loads HTTP code. The shell scripts only relay words
 * and print candidates, so they never go stale as commands change.
 */
import type { Command, Option } from 'commander';
import { argSpec, optionSpec, type IdKind, type ValueSpec } from './values.js';
import { commandPath, findOption, findSubcommand, optionsInScope, resolvePath, takesValue, visibleCommands } from './tree.js';

export interface Candidate {
  value: string;
  description?: string;
}

/** Global options typed on the line, passed on to the service lookup. */
export interface LineGlobals {
  profile?: string;
  baseUrl?: string;
  sandbox?: boolean;
}

export interface Completion {
  candidates: Candidate[];
  /** The shell should offer file names too. */
  files: boolean;
  /** Ids of this kind are wanted; each is prefixed with `prefix` (the list typed before the last comma, or `--flag=`). */
  ids?: { kind: IdKind; prefix: string; partial: string };
  /** Profile names are wanted, each prefixed with `prefix` (`--profile=`). */
  profiles?: { prefix: string; partial: string };
  globals: LineGlobals;
}

/** Names `trackctl help <topic>` accepts besides command paths; set by the help command's module. */
export interface EngineOptions {
  topics?: ReadonlyArray<{ name: string; summary: string }>;
  /** Words that run as commands without being ones (aliases, extensions); asked only where a command name goes. */
  external?: () => Candidate[];
}

const FILE_WORD = /file/i;

/** `words` are the words after `trackctl`; the last one is the (possibly empty) word being completed. */
export function complete(root: Command, words: readonly string[], options: EngineOptions = {}): Completion {
  const done = words.slice(0, -1);
  const cur = words.at(-1) ?? '';
  const globals: LineGlobals = {};
  let cmd = root;
  const args: string[] = [];
  let pending: Option | undefined;
  let literal = false;

  for (const word of done) {
    if (pending) {
      noteGlobal(globals, pending, word);
      pending = undefined;
    } else if (!literal && word === '--') {
      literal = true;
    } else if (!literal && word.startsWith('-') && word !== '-') {
      const eq = word.indexOf('=');
      const opt = findOption(cmd, eq > 0 ? word.slice(0, eq) : word);
      if (opt && eq > 0) noteGlobal(globals, opt, word.slice(eq + 1));
      else if (opt && takesValue(opt)) pending = opt;
      else if (opt) noteGlobal(globals, opt, '');
    } else {
      const sub = args.length === 0 && !literal ? findSubcommand(cmd, word) : undefined;
      if (sub) cmd = sub;
      else args.push(word);
    }
  }

  const result: Completion = { candidates: [], files: false, globals };
  const path = commandPath(cmd);
  if (pending) {
    valuesFor(result, optionSpec(path, pending.long ?? ''), pending.argChoices, optionWantsFile(pending), cur, '');
  } else if (!literal && cur.startsWith('--') && cur.includes('=')) {
    const eq = cur.indexOf('=');
    const opt = findOption(cmd, cur.slice(0, eq));
    if (opt && takesValue(opt)) {
      valuesFor(result, optionSpec(path, opt.long ?? ''), opt.argChoices, optionWantsFile(opt), cur.slice(eq + 1), cur.slice(0, eq + 1));
    }
  } else if (!literal && cur.startsWith('-')) {
    result.candidates = flagsOf(cmd).filter((c) => c.value.startsWith(cur));
  } else if (path === 'help') {
    result.candidates = helpCandidates(root, args, options).filter((c) => c.value.startsWith(cur));
  } else {
    if (args.length === 0 && !literal) {
      result.candidates = visibleCommands(cmd)
        .map((c): Candidate => ({ value: c.name(), description: c.description() }))
        .concat(cmd === root && options.external ? options.external() : [])
        .filter((c) => c.value.startsWith(cur));
    }
    positional(result, cmd, path, args, cur);
  }
  return result;
}

function noteGlobal(globals: LineGlobals, opt: Option, value: string): void {
  if (opt.long === '--profile') globals.profile = value;
  else if (opt.long === '--base-url') globals.baseUrl = value;
  else if (opt.long === '--sandbox') globals.sandbox = true;
}

/** `--report <file>`, `--state <file>`, `-f, --file <path>`: the value is a file name. */
function optionWantsFile(opt: Option): boolean {
  return FILE_WORD.test(opt.flags.replace(/^[^<[]*/, '')) || /(^--|-)file$/.test(opt.long ?? '');
}

function flagsOf(cmd: Command): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const o of optionsInScope(cmd)) {
    const flag = o.long ?? o.short;
    if (!flag || seen.has(flag) || (flag === '--version' && cmd.parent)) continue;
    seen.add(flag);
    out.push({ value: flag, description: o.description });
  }
  if (!seen.has('--help')) out.push({ value: '--help', description: 'show help for a command' });
  return out;
}

function positional(result: Completion, cmd: Command, path: string, args: readonly string[], cur: string): void {
  const declared = cmd.registeredArguments;
  if (declared.length === 0) return;
  const last = declared[declared.length - 1];
  const index = args.length;
  if (index >= declared.length && !last?.variadic) return;
  const arg = declared[Math.min(index, declared.length - 1)];
  const spec = argSpec(path, index, declared.length, Boolean(last?.variadic));
  const wantsFile = arg !== undefined && FILE_WORD.test(arg.name());
  if (spec?.after) {
    result.candidates.push(...spec.after(args).filter((v) => v.startsWith(cur)).map((value) => ({ value })));
    return;
  }
  valuesFor(result, spec, arg?.argChoices, wantsFile, cur, '');
}

function valuesFor(
  result: Completion,
  spec: ValueSpec | undefined,
  choices: readonly string[] | undefined,
  wantsFile: boolean,
  cur: string,
  flagPrefix: string,
): void {
  const asList = (spec?.list || spec?.ids !== undefined) && cur.includes(',');
  const listPrefix = asList ? cur.slice(0, cur.lastIndexOf(',') + 1) : '';
  const partial = cur.slice(listPrefix.length);
  const prefix = flagPrefix + listPrefix;
  if (spec?.ids) {
    result.ids = { kind: spec.ids, prefix, partial };
    return;
  }
  if (spec?.profiles) {
    result.profiles = { prefix, partial };
    return;
  }
  const values = spec?.values ?? choices;
  if (values) {
    result.candidates.push(...values.filter((v) => v.startsWith(partial)).map((v) => ({ value: prefix + v })));
    return;
  }
  if (wantsFile) result.files = true;
}

function helpCandidates(root: Command, args: readonly string[], options: EngineOptions): Candidate[] {
  const target = resolvePath(root, args);
  if (!target) return [];
  const out = visibleCommands(target)
    .filter((c) => c.name() !== 'help' || args.length > 0)
    .map((c) => ({ value: c.name(), description: c.description() }));
  if (args.length === 0) out.push(...(options.topics ?? []).map((t) => ({ value: t.name, description: t.summary })));
  return out;
}
