/**
 * Assembles the commander tree. Definitions are light; each action loads its
 * verb's module only when it runs, so help and completion stay fast. Given the
 * command line, only the invoked top-level command's subtree is defined.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { declarationOf, examples } from './commands/declare.js';
import { registerAuth } from './commands/auth/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerUnits } from './commands/devices/index.js';
import { registerApi } from './commands/api/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerHistory } from './commands/history/index.js';
import { registerReport } from './commands/report/index.js';
import { registerWatch } from './commands/watch/index.js';
import { registerWait } from './commands/wait/index.js';
import { registerUsers } from './commands/users/index.js';
import { registerGroups } from './commands/groups/index.js';
import { registerShares } from './commands/shares/index.js';
import { registerAllUnits } from './commands/units/index.js';
import { registerApply } from './commands/apply/index.js';
import { registerExport } from './commands/export/index.js';
import { registerHelp } from './commands/help/index.js';
import { helpWidth, wrapHelpText } from './commands/help/wrap.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerMap } from './commands/map/index.js';
import { registerAlias } from './commands/alias/index.js';
import { registerExtension } from './commands/extension/index.js';
import { COMMAND_GROUPS } from './commands/names.js';

type Register = (program: Command, ctx: Context) => void;

/** The function that defines each top-level command (by its first name in COMMAND_GROUPS) and its subtree. */
const REGISTER: Record<(typeof COMMAND_GROUPS)[number][0], Register> = {
  login: registerAuth,
  config: registerConfig,
  devices: (p, c) => registerUnits(p, c, 'devices'),
  sensors: (p, c) => registerUnits(p, c, 'sensors'),
  users: registerUsers,
  groups: registerGroups,
  shares: registerShares,
  units: registerAllUnits,
  api: registerApi,
  sandbox: registerSandbox,
  history: registerHistory,
  report: registerReport,
  watch: registerWatch,
  wait: registerWait,
  apply: registerApply,
  export: registerExport,
  map: registerMap,
  alias: registerAlias,
  extension: registerExtension,
  completion: registerCompletion,
  help: registerHelp,
};

/** Every top-level command (with aliases) and the function that defines it and its subtree, in help order. */
export const TOP_LEVEL: ReadonlyArray<{ names: readonly string[]; register: Register }> = COMMAND_GROUPS.map((names) => ({ names, register: REGISTER[names[0]] }));

/** Commands that read the whole tree: help and completion. */
const TREE_READERS = new Set(['help', 'completion', '__complete', '__gen']);

/**
 * The program. With `argv`, a command that does not read the tree gets only its
 * own subtree (and help, which also sets up the root): defining all of them
 * costs several milliseconds of every start-up.
 */
export function buildProgram(ctx: Context, version: string, argv?: readonly string[]): Command {
  const program = new Command('trackctl');
  program
    .description('Administer a fleet on the Fleet Location Tracking Service: devices, sensors, users, groups, shares and history.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // Help: the prose commands add is wrapped to the width commander wraps the options to.
      getOutHelpWidth: () => helpWidth(ctx.io.stdoutIsTTY, ctx.io.columns()),
      writeOut: (text) => void ctx.io.out(wrapHelpText(text, helpWidth(ctx.io.stdoutIsTTY, ctx.io.columns()))),
      writeErr: (text) => ctx.io.err(text.replace(/\n$/, '')),
    });

  program
    .option('-p, --profile <name>', 'configuration profile to use (env TRACKCTL_PROFILE)')
    .option('--base-url <url>', 'service address (env TRACKCTL_BASE_URL)')
    .option('--sandbox', 'run against the embedded sandbox, signed in as the demo account (env TRACKCTL_SANDBOX=1)')
    .addOption(new Option('-o, --output <format>', 'output format: table, json, ndjson, csv, yaml (lists also wide, name), custom-columns=HEADER:.path,... (env TRACKCTL_OUTPUT)'))
    .option('--fields <list>', 'comma-separated fields to show, in order')
    .option('--jq <expression>', 'filter the JSON output with jq; implies -o json (-o ndjson: each record); see help formatting')
    .addOption(new Option('--arg <name> <value>', 'with --jq: $name is the string value (repeatable)').argParser(collectPair))
    .addOption(new Option('--argjson <name> <json>', 'with --jq: $name is the JSON value (repeatable)').argParser(collectPair))
    .option('--template <string>', 'format the JSON output with a Handlebars template; implies -o json (-o ndjson: each record)')
    .option('--no-header', 'omit the header row (table, csv)')
    .option('--raw', "print the service's reply body unchanged")
    .option('--no-color', 'no colour (also NO_COLOR; FORCE_COLOR forces it)')
    .option('--no-input', 'never prompt; a missing value is an error')
    .option('-y, --yes', 'answer yes to confirmations (delete, logout --all)')
    .option('-q, --quiet', 'print only data and errors')
    .option('-v, --verbose', 'trace HTTP requests on stderr (secrets redacted)')
    .option('--timeout <duration>', 'per-request timeout, e.g. 30s (env TRACKCTL_TIMEOUT)')
    .option('--retries <n>', 'retries for idempotent requests (env TRACKCTL_RETRIES)');

  program.hook('preAction', (_program, action) => {
    ctx.globals = action.optsWithGlobals() as GlobalOptions;
  });

  const word = argv === undefined ? undefined : firstOperand(argv, program);
  const invoked = word === undefined || TREE_READERS.has(word) ? undefined : TOP_LEVEL.find((c) => c.names.includes(word));
  for (const command of TOP_LEVEL) {
    if (!invoked || command === invoked || command.names.includes('help')) command.register(program, ctx);
  }
  for (const group of program.commands) withGroupExamples(group);
  return program;
}

/** A group of verbs (token, config, devices, …) shows examples too: the first of each verb, made when its help is shown. */
function withGroupExamples(group: Command): void {
  if (group.commands.length === 0 || declarationOf(group) !== undefined) return;
  group.addHelpText('after', () => {
    const lines = group.commands.flatMap((verb) => declarationOf(verb)?.examples?.slice(0, 1) ?? []);
    return lines.length === 0 ? '' : examples(lines);
  });
}

/** Options that take two values, as jq's do (`--arg NAME VALUE`). */
const PAIR_OPTIONS = new Set(['--arg', '--argjson']);

/**
 * `--arg NAME VALUE` → `--arg=NAME=VALUE`: commander gives an option one value, and jq's
 * flags take two. A name cannot hold `=`, so the first one splits them again (collectPair).
 * Options after `--` are operands and stay as they are; so does a rewritten one (an alias
 * expands its command line again).
 */
export function joinPairOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    if (PAIR_OPTIONS.has(arg) && i + 2 < argv.length) {
      out.push(`${arg}=${argv[i + 1]}=${argv[i + 2]}`);
      i += 2;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Each --arg/--argjson as [name, value], in order. */
function collectPair(value: string, previous: Array<[string, string]> | undefined): Array<[string, string]> {
  const at = value.indexOf('=');
  // Only a pair that was cut short reaches here without '=': `--arg NAME` at the end.
  if (at < 0) throw new InvalidArgumentError(`takes a name and a value, e.g. --arg unit "Ford Transit 01" (then $unit in --jq)`);
  return [...(previous ?? []), [value.slice(0, at), value.slice(at + 1)]];
}

/**
 * The first word that is not a root option or an option's value, read the way
 * commander reads it: `--opt value`, `--opt=value`, `-o value`, `-ovalue`,
 * clustered short flags (`-vq`), and `--` ending the options.
 */
export function firstOperand(argv: readonly string[], program: Command): string | undefined {
  const at = operandIndex(argv, program);
  return at === undefined ? undefined : argv[at];
}

/** Where firstOperand is in argv. */
export function operandIndex(argv: readonly string[], program: Command): number | undefined {
  const takesValue = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return i + 1 < argv.length ? i + 1 : undefined;
    if (arg.startsWith('--')) {
      if (!arg.includes('=') && takesValue.has(arg)) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      // -vqo json: flags until the first that takes a value; the rest of the cluster, or the next word, is its value.
      const at = [...arg.slice(1)].findIndex((ch) => takesValue.has(`-${ch}`));
      if (at === arg.length - 2) i++;
    } else {
      return i;
    }
  }
  return undefined;
}
