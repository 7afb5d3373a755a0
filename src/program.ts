/**
 * Assembles the commander tree. Definitions are light; each action loads its
 * verb's module only when it runs, so help and completion stay fast.
 */
import { Command, Option } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { registerAuth } from './commands/auth/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerUnits } from './commands/devices/index.js';
import { registerApi } from './commands/api/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerHistory } from './commands/history/index.js';
import { registerUsers } from './commands/users/index.js';
import { registerGroups } from './commands/groups/index.js';
import { registerShares } from './commands/shares/index.js';
import { registerAllUnits } from './commands/units/index.js';
import { registerApply } from './commands/apply/index.js';
import { registerExport } from './commands/export/index.js';
import { registerHelp } from './commands/help/index.js';
import { registerCompletion } from './commands/completion/index.js';

export function buildProgram(ctx: Context, version: string): Command {
  const program = new Command('trackctl');
  program
    .description('Administer a fleet on the Fleet Location Tracking Service: devices, sensors, users, groups, shares and history.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void ctx.io.out(text),
      writeErr: (text) => ctx.io.err(text.replace(/\n$/, '')),
    });

  program
    .option('-p, --profile <name>', 'configuration profile to use (env TRACKCTL_PROFILE)')
    .option('--base-url <url>', 'service address (env TRACKCTL_BASE_URL)')
    .option('--sandbox', 'run against the embedded sandbox, signed in as the demo account (env TRACKCTL_SANDBOX=1)')
    .addOption(new Option('-o, --output <format>', 'output format: table, json, ndjson, csv, yaml (env TRACKCTL_OUTPUT)'))
    .option('--fields <list>', 'comma-separated fields to show, in order')
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

  registerAuth(program, ctx);
  registerConfig(program, ctx);
  registerUnits(program, ctx, 'devices');
  registerUnits(program, ctx, 'sensors');
  registerUsers(program, ctx);
  registerGroups(program, ctx);
  registerShares(program, ctx);
  registerAllUnits(program, ctx);
  registerApi(program, ctx);
  registerSandbox(program, ctx);
  registerHistory(program, ctx);
  registerApply(program, ctx);
  registerExport(program, ctx);
  registerCompletion(program, ctx);
  registerHelp(program, ctx);
  return program;
}
