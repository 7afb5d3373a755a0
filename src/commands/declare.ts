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
 * Kinds say what a value is (for help, completion and the reference). An int, number,
 * duration or size option is declared with its parser (values.ts), which commander runs as it
 * reads the option: the handler gets the number (seconds, bytes), a bad value is exit 2 before
 * the handler loads. A strict choice gives its values' union (checked by commander), a list
 * every occurrence. Times and loose choices stay text: a time is read in the invocation's zone
 * (--tz, the profile) and a loose choice matched with the command's own error, by its plan.
 */
import { Argument, Command, Option } from 'commander';
import type { Context } from '../context.js';
import type { Parse } from './values.js';

export type Kind = 'flag' | 'string' | 'int' | 'number' | 'duration' | 'size' | 'time' | 'choice' | 'list';

/**
 * One option: `V` is the value its handler receives, `K` the key it receives it under, `P`
 * whether it is always there (required, or filled in by commander when not given).
 */
export interface OptionDecl<K extends string = string, V = unknown, P extends boolean = boolean> {
  readonly flags: string;
  readonly kind: Kind;
  readonly help: string;
  /** The default as people read it ("8", "30s"); appended to the help as "(default …)". */
  readonly default?: string;
  /** A choice's values. */
  readonly values?: readonly string[];
  /** commander checks the choice (and help lists it); otherwise the command's parser does. */
  readonly strict?: boolean;
  /** The value the handler gets when the option is not given. */
  readonly fallback?: string;
  readonly required?: boolean;
  /** Option keys this one cannot be given with (commander's conflicts). */
  readonly conflicts?: readonly string[];
  /** Reads the text into the value the handler gets (and the fallback too). */
  readonly parse?: Parse<V>;
  /** Only for the types: the key and value the handler sees, and whether it is always there. */
  readonly __key?: K;
  readonly __value?: V;
  readonly __present?: P;
}

/** `--all-units <x>` → 'allUnits'; `--no-motion-state` → 'motionState' (commander's keys). */
type LongName<F extends string> = F extends `${string}--${infer L}` ? (L extends `${infer N} ${string}` ? N : L) : never;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type KeyOf<F extends string> = LongName<F> extends `no-${infer P}` ? Camel<P> : Camel<LongName<F>>;

export type AnyOption = OptionDecl<string, unknown, boolean>;

type KeyIf<P, Present extends boolean> = P extends OptionDecl<infer K, unknown, Present> ? K : never;
type ValueOf<P> = P extends OptionDecl<string, infer V, boolean> ? V : never;

/** The values a handler receives: a property per option, typed by its kind; optional unless always there. */
export type Values<O extends readonly AnyOption[]> = {
  [P in O[number] as KeyIf<P, true>]: ValueOf<P>;
} & {
  [P in O[number] as KeyIf<P, false>]?: ValueOf<P>;
};

interface Extra {
  default?: string;
  /** A value commander fills in when the option is not given (its help then says "(default: …)"). */
  fallback?: string;
  /** commander refuses the command line without it. */
  required?: boolean;
  conflicts?: readonly string[];
}

/** Always there: required, filled in by commander, or a negated flag (`--no-x` is true unless given). */
type Present<F extends string, E> = LongName<F> extends `no-${string}` ? true : E extends { fallback: string } | { required: true } ? true : false;

type Declare<V> = <F extends string, const E extends Extra = {}>(flags: F, help: string, extra?: E) => OptionDecl<KeyOf<F>, V, Present<F, E>>;

function maker<V>(kind: Kind): Declare<V> {
  return (flags, help, extra) => ({ flags, kind, help, ...extra });
}

/** An option whose text `parse` reads: the handler gets what it returns. */
type DeclareParsed = <F extends string, V, const E extends Extra = {}>(flags: F, help: string, parse: Parse<V>, extra?: E) => OptionDecl<KeyOf<F>, V, Present<F, E>>;

function parsed(kind: Kind): DeclareParsed {
  return (flags, help, parse, extra) => ({ flags, kind, help, ...extra, parse });
}

/** A switch: `--all-units`, or `--no-motion-state` (true unless given). */
export const flag = maker<boolean>('flag');
export const text = maker<string>('string');
export const int = parsed('int');
export const number = parsed('number');
/** Seconds. */
export const duration = parsed('duration');
/** Bytes. */
export const size = parsed('size');
export const time = maker<string>('time');
/** Repeatable: every occurrence, in order (`--types a,b --types c` → ['a,b', 'c']). */
export const list = maker<string[]>('list');

/** One of `values`; the command's parser matches it (loosely, with its own error). */
export function choice<F extends string, const E extends Extra = {}>(flags: F, values: readonly string[], help: string, extra?: E): OptionDecl<KeyOf<F>, string, Present<F, E>> {
  return { flags, kind: 'choice', help, ...extra, values };
}

/** One of `values`, checked by commander before the command runs; the handler gets the union. */
export function strictChoice<F extends string, const C extends readonly string[], const E extends Extra = {}>(flags: F, values: C, help: string, extra?: E): OptionDecl<KeyOf<F>, C[number], Present<F, E>> {
  return { flags, kind: 'choice', help, ...extra, values, strict: true };
}

export interface ArgumentDecl {
  /** commander's form: `<did>`, `[ids...]`. */
  readonly spec: string;
  readonly help: string;
  /** The words it can be, checked by commander before the command runs (and completed). */
  readonly choices?: readonly string[];
}

/**
 * A command's handler: its operands, its typed values, the context and, for the few that read
 * the command tree itself (help, completion), the commander command it runs as.
 */
export type Handler<V> = (args: string[], values: V, ctx: Context, command: Command) => Promise<void>;

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
  /** Left out of help, completion and the reference: an entry point of the completion scripts. */
  readonly hidden?: boolean;
  /** The usage line, where commander's would mislead (map takes another command's options). */
  readonly usage?: string;
  /** Options it does not declare are operands too: words handed on to another command (map) or completed (__complete). */
  readonly passThrough?: boolean;
  /** The help of -h, --help; false: no help flag (every word is an operand). */
  readonly helpFlag?: string | false;
  /** The module that runs the command, imported only when it runs. */
  readonly load: () => Promise<{ run: Handler<Values<O>> }>;
}

/** Declares a command; the handler `load` returns must take the values the options declare. */
export function defineCommand<const O extends readonly AnyOption[]>(decl: CommandDecl<O>): CommandDecl<O> {
  return decl;
}

/** What a declaration says about a command, without its handler: what the reference reads. */
export type Described = Omit<CommandDecl, 'load'>;

/**
 * Any declaration, whatever its options: defineCommand already matched its handler to them,
 * so registering (which only hands commander's values on) need not know their types.
 */
export type Declared = Described & { readonly load: () => Promise<{ run: Handler<never> }> };

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

/** The commander option of a declared one. */
function toOption(o: AnyOption): Option {
  const option = new Option(o.flags, optionHelp(o));
  if (o.strict && o.values) option.choices(o.values);
  if (o.conflicts) option.conflicts([...o.conflicts]);
  if (o.kind === 'list') option.argParser(collect);
  const parse = o.parse;
  const flag = option.long ?? o.flags;
  if (parse) option.argParser((value: string) => parse(value, flag));
  if (o.fallback !== undefined) option.default(parse ? parse(o.fallback, flag) : o.fallback);
  if (o.required) option.makeOptionMandatory();
  return option;
}

function toArgument(a: ArgumentDecl): Argument {
  const argument = new Argument(a.spec, a.help);
  if (a.choices) argument.choices(a.choices);
  return argument;
}

/** Adds the declared command under `parent`: commander objects only, the handler stays unloaded. */
export function registerCommand(parent: Command, decl: Declared, ctx: Context): Command {
  const cmd = parent.command(decl.name, { hidden: decl.hidden === true });
  for (const alias of decl.aliases ?? []) cmd.alias(alias);
  cmd.description(decl.summary);
  if (decl.usage !== undefined) cmd.usage(decl.usage);
  for (const a of decl.args ?? []) cmd.addArgument(toArgument(a));
  for (const o of decl.options) cmd.addOption(toOption(o));
  if (decl.passThrough) cmd.allowUnknownOption().allowExcessArguments();
  if (decl.helpFlag !== undefined) cmd.helpOption(decl.helpFlag === false ? false : '-h, --help', decl.helpFlag === false ? undefined : decl.helpFlag);
  const after = `${decl.notes ?? ''}${decl.examples ? examples(decl.examples) : ''}${decl.footer ?? ''}`;
  if (after !== '') cmd.addHelpText('after', after);
  cmd.action(async () => {
    // cmd.opts() holds exactly the options declared above, as defineCommand typed them.
    const { run } = await decl.load();
    await run(cmd.args, cmd.opts<never>(), ctx, cmd);
  });
  DECLARED.set(cmd, decl);
  return cmd;
}
