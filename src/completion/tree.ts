/** Reading the commander tree: visible commands and options, paths, lookups. Shared by completion, help and man pages. */
import type { Command, Option } from 'commander';

function isHidden(cmd: Command): boolean {
  return Boolean((cmd as unknown as { _hidden?: boolean })._hidden);
}

/** Subcommands a user may see (no hidden ones such as __complete). */
export function visibleCommands(cmd: Command): Command[] {
  return cmd.commands.filter((c) => !isHidden(c));
}

export function visibleOptions(cmd: Command): Option[] {
  return cmd.options.filter((o) => !o.hidden);
}

/** 'devices get' for `trackctl devices get`; '' for the root. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

export function findSubcommand(cmd: Command, word: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** Follows words ('devices', 'list') down the tree; undefined when one does not name a command. */
export function resolvePath(root: Command, words: readonly string[]): Command | undefined {
  let cmd: Command | undefined = root;
  for (const w of words) {
    cmd = cmd && findSubcommand(cmd, w);
    if (!cmd) return undefined;
  }
  return cmd;
}

/** The command's own options, then those of its ancestors (the global options live on the root). */
export function optionsInScope(cmd: Command): Option[] {
  const out: Option[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.push(...visibleOptions(c));
  return out;
}

export function findOption(cmd: Command, flag: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const o = c.options.find((x) => x.long === flag || x.short === flag);
    if (o) return o;
  }
  return undefined;
}

export function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

/** Every command of the tree, depth first, the root first. */
export function walkCommands(root: Command): Command[] {
  const out: Command[] = [root];
  for (const c of visibleCommands(root)) out.push(...walkCommands(c));
  return out;
}

/** Text added with addHelpText(position, …), as commander would print it. */
export function helpTextOf(cmd: Command, position: 'before' | 'after' | 'beforeAll' | 'afterAll'): string {
  let text = '';
  (cmd as unknown as NodeJS.EventEmitter).emit(`${position}Help`, { error: false, command: cmd, write: (s: string) => (text += s) });
  return text;
}

/** The `$ trackctl …` lines of a command's "Examples:" help text. */
export function examplesOf(cmd: Command): string[] {
  return helpTextOf(cmd, 'after')
    .split('\n')
    .map((l) => /^\s*\$ (.*)$/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined);
}
