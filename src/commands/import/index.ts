/**
 * The `import` verb of devices, sensors and users: only its definition and help
 * live here (no API code is loaded until it runs).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, flag, int, registerCommand, strictChoice, text } from '../declare.js';
import { concurrencyValue } from '../values.js';

type Kind = 'devices' | 'sensors' | 'users';

const COLUMNS: Record<Kind, string> = {
  devices: 'name, tracker-id (or trackerID), type (or deviceType), sim-phone (or simPhoneNumber), groups (or groupMember)',
  sensors: 'name, unique-id (or uniqueID), type (or deviceType), sim-phone (or simPhoneNumber), groups (or groupMember)',
  users: 'name, email, type (or userType: trackedUser|dispatcher), sim-phone (or simPhoneNumber), groups (or groupMember), viewer-groups (or groupViewer)',
};

const KEY: Record<Kind, string> = { devices: 'tracker ID', sensors: 'unique ID', users: 'e-mail address (any case)' };

function details(kind: Kind): string {
  return `
Input: CSV with a header row, NDJSON (one object per line) or a JSON array of objects,
from a file or stdin (-). The format comes from --format, else the file extension
(.csv, .ndjson/.jsonl, .json); on stdin or another extension it is sniffed ([ → json, { → ndjson, else csv).
Columns / fields: ${COLUMNS[kind]}.
Group ids are separated by ';', ',' or spaces ("101;102"), or given as a JSON array.

Every row is validated first, with the rules of \`${kind} create\`; a key repeated in the
file and a group the account does not have are errors too. Any bad row → exit 2, listing
every bad row by line, and nothing is written.

--skip-existing matches existing records by ${KEY[kind]} (the list is read once) and
skips them, adding only the groups they lack, so a re-run creates nothing twice.
A create interrupted by a network fault or a 5xx is reconciled by looking the key up
before it is retried, so faults never make duplicates.

Without --continue-on-error no new create starts after the first failure (those in
flight finish; the rest are reported "not-attempted"). With it every row is tried.

Report: one NDJSON record per row, {"row","key","outcome","id","groups","error"}, with
outcome created | skipped | failed | not-attempted (dry run: would-create | skipped |
would-fail). It goes to --report FILE, else to stderr (with -q only rows that did not
succeed). With an explicit -o json|ndjson|csv|yaml|table it is data and goes to stdout.
A summary line follows on stderr. Exit 0 when every row succeeded, 7 when some failed
or were not attempted (also a dry run that found rows that would fail).
`;
}

/** `devices import`, `sensors import`, `users import`: one declaration, worded for the kind. */
export function importCommand(kind: Kind) {
  const file = kind === 'users' ? 'users.csv' : `${kind}.csv`;
  return defineCommand({
    name: 'import',
    summary: `Create ${kind} in bulk from a CSV, NDJSON or JSON file; idempotent with --skip-existing`,
    args: [{ spec: '<file>', help: 'file to read, or - for stdin' }],
    options: [
      strictChoice('--format <format>', ['csv', 'ndjson', 'json'], 'input format (default: from the extension, or sniffed)'),
      int('--concurrency <n>', 'creates in flight at once, 1–64', concurrencyValue, { fallback: '8' }),
      flag('--dry-run', 'validate and compare with what exists; write nothing'),
      flag('--skip-existing', `skip rows whose ${KEY[kind]} already exists (and add their missing groups)`),
      text('--report <file>', 'write the per-row NDJSON report to this file'),
      flag('--continue-on-error', 'try every row even after a failure'),
    ],
    notes: details(kind),
    examples: [
      `trackctl ${kind} import ${file} --dry-run`,
      `trackctl ${kind} import ${file} --skip-existing --report import-report.ndjson`,
      `cat ${kind}.ndjson | trackctl ${kind} import - --concurrency 16 --continue-on-error -o json`,
    ],
    load: async () => (await import('./run.js')).runFor(kind),
  });
}

export function registerImport(noun: Command, ctx: Context, kind: Kind): void {
  registerCommand(noun, importCommand(kind), ctx);
}
