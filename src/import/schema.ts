/**
 * What an import row may hold, per kind, and its validation with the same parsers
 * as the create commands. Every problem of every row is collected ("line 7:
 * tracker-id "": must not be empty") so one run shows them all; nothing is sent
 * while any remains.
 */
import { TrackctlError } from '../errors.js';
import type { NewUnit } from '../api/units.js';
import type { NewUser } from '../api/users.js';
import { parseEmail, parseId, parseKey, parsePhone, parseUserType, requireText } from '../validate.js';
import { rowLabel, type Issue, type ParsedSource, type RawRow } from './source.js';

export type ImportKind = 'devices' | 'sensors' | 'users';

export interface ImportRow<B> {
  line: number;
  /** A JSON array's element (RawRow's). */
  item?: number;
  /** The natural key as it will be sent: trackerID, uniqueID or e-mail. */
  key: string;
  /** The key as compared with existing records (e-mail case-insensitively). */
  match: string;
  body: B;
  groups: number[];
  viewerGroups: number[];
}

interface FieldSpec {
  /** Canonical (flag-style) name, used in messages. */
  name: string;
  /** Accepted spellings, normalised: lower case without '-', '_' or spaces. */
  aliases: string[];
}

const COMMON = {
  name: { name: 'name', aliases: ['name'] },
  phone: { name: 'sim-phone', aliases: ['simphone', 'simphonenumber'] },
  groups: { name: 'groups', aliases: ['groups', 'groupmember', 'groupmembers'] },
};

export const FIELDS: Record<ImportKind, FieldSpec[]> = {
  devices: [COMMON.name, { name: 'tracker-id', aliases: ['trackerid'] }, { name: 'type', aliases: ['type', 'devicetype'] }, COMMON.phone, COMMON.groups],
  sensors: [COMMON.name, { name: 'unique-id', aliases: ['uniqueid'] }, { name: 'type', aliases: ['type', 'devicetype'] }, COMMON.phone, COMMON.groups],
  users: [
    COMMON.name,
    { name: 'email', aliases: ['email'] },
    { name: 'type', aliases: ['type', 'usertype'] },
    COMMON.phone,
    COMMON.groups,
    { name: 'viewer-groups', aliases: ['viewergroups', 'groupviewer', 'groupviewers'] },
  ],
};

const REQUIRED: Record<ImportKind, string[]> = {
  devices: ['name', 'tracker-id', 'type'],
  sensors: ['name', 'unique-id', 'type'],
  users: ['name', 'email', 'type'],
};

export function keyField(kind: ImportKind): string {
  return kind === 'devices' ? 'tracker-id' : kind === 'sensors' ? 'unique-id' : 'email';
}

function fieldFor(kind: ImportKind, column: string): FieldSpec | undefined {
  const norm = column.toLowerCase().replace(/[-_ ]/g, '');
  return FIELDS[kind].find((f) => f.aliases.includes(norm));
}

/** A parser's UsageError as a row message: 'invalid --email "x": …' → 'email "x": …'. */
function messageOf(err: unknown): string {
  if (!(err instanceof TrackctlError)) throw err;
  return err.message.replace(/^invalid /, '').replace(/^--/, '');
}

function textOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new TrackctlError(`${field}: expected text, got ${Array.isArray(value) ? 'an array' : 'an object'}`);
  return value.trim() === '' ? undefined : value;
}

/** "1;2 3", "1,2", [1, "2"] or 7 → [1, 2, 3]; empty → []. */
export function parseGroupCell(value: unknown, field: string): number[] {
  if (value === undefined || value === null || value === '') return [];
  const parts = Array.isArray(value) ? value : typeof value === 'number' ? [value] : typeof value === 'string' ? value.split(/[;,\s]+/) : undefined;
  if (!parts) throw new TrackctlError(`${field}: expected group ids such as "101;102" or [101, 102]`);
  const ids: number[] = [];
  for (const part of parts) {
    if (part === '') continue;
    if (typeof part !== 'string' && typeof part !== 'number') throw new TrackctlError(`${field}: expected group ids such as "101;102" or [101, 102]`);
    try {
      const id = parseId(String(part), 'group id');
      if (!ids.includes(id)) ids.push(id);
    } catch {
      throw new TrackctlError(`${field} ${JSON.stringify(value)}: group id "${String(part)}" is not a positive integer`);
    }
  }
  return ids;
}

export interface Validated<B> {
  rows: ImportRow<B>[];
  issues: Issue[];
}

/** Checks CSV headers (unknown, repeated, missing columns); row-level names are checked per row. */
function headerIssues(kind: ImportKind, header: string[]): Issue[] {
  const issues: Issue[] = [];
  const seen = new Map<string, string>();
  const expected = FIELDS[kind].map((f) => f.name).join(', ');
  for (const column of header) {
    const f = fieldFor(kind, column);
    if (!f) issues.push({ line: 1, message: `unknown column "${column}": expected ${expected}` });
    else if (seen.has(f.name)) issues.push({ line: 1, message: `column "${column}" repeats "${seen.get(f.name) ?? ''}"` });
    else seen.set(f.name, column);
  }
  for (const name of REQUIRED[kind]) if (!seen.has(name)) issues.push({ line: 1, message: `missing column "${name}"` });
  return issues;
}

/** Raw values keyed by canonical field name; unknown names become issues. */
function canonical(kind: ImportKind, row: RawRow, issues: Issue[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [column, value] of Object.entries(row.values)) {
    const f = fieldFor(kind, column);
    if (!f) issues.push({ line: row.line, item: row.item, message: `unknown field "${column}": expected ${FIELDS[kind].map((x) => x.name).join(', ')}` });
    else if (out.has(f.name)) issues.push({ line: row.line, item: row.item, message: `field "${column}" repeats ${f.name}` });
    else out.set(f.name, value);
  }
  return out;
}

export function validateRows(kind: 'devices' | 'sensors', source: ParsedSource): Validated<NewUnit>;
export function validateRows(kind: 'users', source: ParsedSource): Validated<NewUser>;
export function validateRows(kind: ImportKind, source: ParsedSource): Validated<NewUnit | NewUser> {
  const issues: Issue[] = [...source.issues];
  if (source.header) {
    const bad = headerIssues(kind, source.header);
    if (bad.length > 0) return { rows: [], issues: [...bad, ...issues] };
  }
  const rows: ImportRow<NewUnit | NewUser>[] = [];
  const firstLine = new Map<string, string>();
  for (const raw of source.rows) {
    const rowIssues: Issue[] = [];
    const values = canonical(kind, raw, rowIssues);
    const check = <T>(parse: () => T): T | undefined => {
      try {
        return parse();
      } catch (err) {
        rowIssues.push({ line: raw.line, item: raw.item, message: messageOf(err) });
        return undefined;
      }
    };
    const field = <T>(name: string, parse: (v: string | undefined) => T): T | undefined => check(() => parse(textOf(values.get(name), name)));
    const name = field('name', (v) => requireText(v, 'name'));
    const key = kind === 'users' ? field('email', (v) => parseEmail(requireText(v, 'email'))) : field(keyField(kind), (v) => parseKey(v, keyField(kind)));
    const deviceType = kind === 'users' ? '' : field('type', (v) => requireText(v, 'type'));
    const userType = kind === 'users' ? field('type', (v) => parseUserType(requireText(v, 'type'), 'type')) : 'dispatcher';
    const phone = field('sim-phone', (v) => parsePhone(v));
    const groups = check(() => parseGroupCell(values.get('groups'), 'groups'));
    const viewerGroups = kind === 'users' ? check(() => parseGroupCell(values.get('viewer-groups'), 'viewer-groups')) : [];
    if (key !== undefined) {
      const match = kind === 'users' ? key.toLowerCase() : key;
      const earlier = firstLine.get(match);
      if (earlier !== undefined) rowIssues.push({ line: raw.line, item: raw.item, message: `${keyField(kind)} "${key}" repeats ${earlier}` });
      else firstLine.set(match, rowLabel(raw));
    }
    if (rowIssues.length > 0 || name === undefined || key === undefined || deviceType === undefined || userType === undefined || groups === undefined || viewerGroups === undefined) {
      issues.push(...rowIssues);
      continue;
    }
    let body: NewUnit | NewUser;
    if (kind === 'users') body = { name, email: key, userType };
    else body = kind === 'devices' ? { name, trackerID: key, deviceType } : { name, uniqueID: key, deviceType };
    if (phone !== undefined) body.simPhoneNumber = phone;
    rows.push({ line: raw.line, item: raw.item, key, match: kind === 'users' ? key.toLowerCase() : key, body, groups, viewerGroups });
  }
  issues.sort((a, b) => a.line - b.line || (a.item ?? 0) - (b.item ?? 0));
  return { rows, issues };
}
