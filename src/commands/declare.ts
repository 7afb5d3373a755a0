/**
 * A command is one declaration (as wrangler's createCommand): its name, summary, arguments,
 * options with their kinds (and the shared groups spread in), notes and examples, and the
 * module that runs it. Help, man pages, completion and docs/reference.md are all read from
 * it; the handler receives the values typed from the declaration itself, so no command reads
 * its options back with a cast.
 *
 * Declaring is cheap: a declaration is plain data and registering it builds only commander
 * objects. The handler's module is imported when the command runs, never before.
 *
 * Kinds say what a value is (for help, completion and the reference). The value a handler
 * receives is the text as typed for every kind that takes one, except a strict choice
 * (its values' union, checked by commander) and a list (every occurrence): the bounds,
 * defaults and precedence of numbers, durations, sizes and times belong to the command's
 * plan parser, which knows the zone and the other flags, and words each error as today.
 */
import { Command, Option } from 'commander';
import type { Context } from '../context.js';

export type Kind = 'flag' | 'string' | 'int' | 'number' | 'duration' | 'size' | 'time' | 'choice' | 'list';

/** One option: `V` is the value its handler receives, `K` the key it receives it under. */
export interface OptionDecl<K extends string = string, V = unknown> {
  readonly flags: string;
  readonly kind: Kind;
  readonly help: string;
  /** The default as people read it ("8", "30s"); appended to the help as "(default …)". */
  readonly default?: string;
  /** A choice's values. */
  readonly values?: readonly string[];
  /** commander checks the choice (and help lists it); otherwise the command's parser does. */
  readonly strict?: boolean;
  /** Option keys this one cannot be given with (commander's conflicts). */
  readonly conflicts?: readonly string[];
  /** Only for the types: the key and value the handler sees. */
  readonly __key?: K;
  readonly __value?: V;
}

/** `--all-units <x>` → 'allUnits'; `--no-motion-state` → 'motionState' (commander's keys). */
type LongName<F extends string> = F extends `${string}--${infer L}` ? (L extends `${infer N} ${string}` ? N : L) : never;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type KeyOf<F extends string> = LongName<F> extends `no-${infer P}` ? Camel<P> : Camel<LongName<F>>;

export type AnyOption = OptionDecl<string, unknown>;

/** The values a handler receives: one optional property per option, typed by its kind. */
export type Values<O extends readonly AnyOption[]> = {
  [P in O[number] as P extends OptionDecl<infer K, unknown> ? K : never]?: P extends OptionDecl<string, infer V> ? V : never;
};

interface Extra {
  default?: string;
  conflicts?: readonly string[];
}

function make<F extends string, V>(flags: F, kind: Kind, help: string, extra: Extra & { values?: readonly string[]; strict?: boolean } = {}): OptionDecl<KeyOf<F>, V> {
  return { flags, kind, help, ...extra };
}

/** A switch: `--all-units`, or `--no-motion-state` (true unless given). */
export const flag = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, boolean>(flags, 'flag', help, extra);
export const text = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string>(flags, 'string', help, extra);
export const int = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string>(flags, 'int', help, extra);
export const number = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string>(flags, 'number', help, extra);
export const duration = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string>(flags, 'duration', help, extra);
export const size = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string>(flags, 'size', help, extra);
export const time = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string>(flags, 'time', help, extra);
/** Repeatable: every occurrence, in order (`--types a,b --types c` → ['a,b', 'c']). */
export const list = <F extends string>(flags: F, help: string, extra?: Extra) => make<F, string[]>(flags, 'list', help, extra);

/** One of `values`; the command's parser matches it (loosely, with its own error). */
export function choice<F extends string>(flags: F, values: readonly string[], help: string, extra?: Extra): OptionDecl<KeyOf<F>, string> {
  return make(flags, 'choice', help, { ...extra, values });
}

/** One of `values`, checked by commander before the command runs; the handler gets the union. */
export function strictChoice<F extends string, const C extends readonly string[]>(flags: F, values: C, help: string, extra?: Extra): OptionDecl<KeyOf<F>, C[number]> {
  return make(flags, 'choice', help, { ...extra, values, strict: true });
}

export interface ArgumentDecl {
  /** commander's form: `<did>`, `[ids...]`. */
  readonly spec: string;
  readonly help: string;
}

export type Handler<V> = (args: string[], values: V, ctx: Context) => Promise<void>;

export interface CommandDecl<O extends readonly AnyOption[] = readonly AnyOption[]> {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly summary: string;
  readonly args?: readonly ArgumentDecl[];
  readonly options: O;
  /** Prose printed after the options, before the examples (end it with a newline for a blank line between). */
  readonly notes?: string;
  readonly examples?: readonly string[];
  /** Prose printed after the examples. */
  readonly footer?: string;
  /** The module that runs the command, imported only when it runs. */
  readonly load: () => Promise<{ run: Handler<Values<O>> }>;
}

/** Declares a command; the handler `load` returns must take the values the options declare. */
export function defineCommand<const O extends readonly AnyOption[]>(decl: CommandDecl<O>): CommandDecl<O> {
  return decl;
}

/** What a declaration says about a command, without its handler: what the reference reads. */
export type Described = Omit<CommandDecl, 'load'>;

/** Each registered command's declaration: the reference reads kinds and defaults from it. */
const DECLARED = new WeakMap<Command, Described>();

export function declarationOf(cmd: Command): Described | undefined {
  return DECLARED.get(cmd);
}

/** The help line of an option: its help and, when declared, its default. */
export function optionHelp(o: AnyOption): string {
  return o.default === undefined ? o.help : `${o.help} (default ${o.default})`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** The commander option of a declared one (also for commands not yet declared whole). */
export function toOption(o: AnyOption): Option {
  const option = new Option(o.flags, optionHelp(o));
  if (o.strict && o.values) option.choices(o.values);
  if (o.conflicts) option.conflicts([...o.conflicts]);
  if (o.kind === 'list') option.argParser(collect);
  return option;
}

/** Adds the declared command under `parent`: commander objects only, the handler stays unloaded. */
export function registerCommand<O extends readonly AnyOption[]>(parent: Command, decl: CommandDecl<O>, ctx: Context): Command {
  const cmd = parent.command(decl.name);
  for (const alias of decl.aliases ?? []) cmd.alias(alias);
  cmd.description(decl.summary);
  for (const a of decl.args ?? []) cmd.argument(a.spec, a.help);
  for (const o of decl.options) cmd.addOption(toOption(o));
  const after = `${decl.notes ?? ''}${decl.examples ? examples(decl.examples) : ''}${decl.footer ?? ''}`;
  if (after !== '') cmd.addHelpText('after', after);
  cmd.action(async (...params: unknown[]) => {
    // commander passes the command last; its opts() hold exactly the options declared above.
    const self = params[params.length - 1] as Command;
    const { run } = await decl.load();
    await run(self.args, self.opts<Values<O>>(), ctx);
  });
  DECLARED.set(cmd, decl);
  return cmd;
}
