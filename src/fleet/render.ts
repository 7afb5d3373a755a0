/**
 * Plan and result rows for the output layer: a table of ACTION, KIND, KEY, DETAILS
 * for people; with -o json/ndjson/yaml/csv every row also has its phase and outcome.
 */
import type { Column, Rec, Tone } from '../io/formats/output.js';
import type { Note, Plan, StepResult } from './steps.js';

const ACTION_TONE: Record<string, Tone> = {
  create: 'good',
  delete: 'bad',
  'remove-members': 'warn',
  'remove-viewers': 'warn',
  'cannot-change': 'bad',
  skip: 'dim',
  keep: 'dim',
};

export const PLAN_COLUMNS: Column[] = [
  { key: 'action', header: 'ACTION', priority: 2, tone: (r) => ACTION_TONE[String(r.action)] },
  { key: 'kind', header: 'KIND', priority: 1 },
  { key: 'key', header: 'KEY', shrink: true, priority: 2 },
  { key: 'details', header: 'DETAILS', shrink: true },
];

/** Machine formats: everything, including what happened. */
export const RESULT_COLUMNS: Column[] = [
  { key: 'phase', header: 'PHASE' },
  ...PLAN_COLUMNS,
  { key: 'outcome', header: 'OUTCOME', priority: 2, tone: (r) => (r.outcome === 'failed' ? 'bad' : r.outcome === 'skipped' ? 'warn' : undefined) },
  { key: 'error', header: 'ERROR', shrink: true },
];

export const RESULT_FIELDS = RESULT_COLUMNS.map((c) => c.key);

function noteRow(n: Note): Rec {
  return { phase: 'none', action: n.action, kind: n.kind, key: n.key, details: n.details, outcome: 'unchanged' };
}

/** The rows of a plan (dry run) or of a run: steps in plan order, then the notes. */
export function resultRows(plan: Plan, results?: StepResult[]): Rec[] {
  const rows: Rec[] = (results ?? plan.steps.map((step) => ({ step, outcome: 'planned' as const }))).map((r: StepResult) => {
    const row: Rec = { phase: r.step.phase, action: r.step.action, kind: r.step.kind, key: r.step.key, details: r.step.details, outcome: r.outcome };
    if (r.error !== undefined) row.error = r.error;
    else if (r.note !== undefined) row.error = r.note;
    return row;
  });
  return [...rows, ...plan.notes.map(noteRow)];
}

/** One line per finished step on stderr: ✓ done, ✗ failed, - skipped. */
export function resultLine(r: StepResult): string {
  const what = `${r.step.action} ${r.step.kind} ${r.step.key}`;
  if (r.outcome === 'failed') return `✗ ${what}: ${r.error ?? 'failed'}`;
  if (r.outcome === 'skipped') return `- ${what}: skipped, ${r.error ?? ''}`;
  return `✓ ${what}${r.note ? ` (${r.note})` : ''}`;
}

export function summaryLine(results: StepResult[]): string {
  const count = (o: string): number => results.filter((r) => r.outcome === o).length;
  const ok = count('ok');
  const failed = count('failed');
  const skipped = count('skipped');
  const parts = [`${ok} change${ok === 1 ? '' : 's'} applied`];
  if (failed > 0) parts.push(`${failed} failed`);
  if (skipped > 0) parts.push(`${skipped} skipped`);
  return `${parts.join(', ')}.${failed + skipped > 0 ? ' Fix the cause and run apply again: it continues from where this run stopped.' : ''}`;
}
