/**
 * Extensions: executables named `trackctl-NAME` on PATH, run as `trackctl NAME`. The first
 * one on PATH wins, as the shell would pick it; a name that is a trackctl command is never
 * an extension.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const PREFIX = 'trackctl-';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface Extension {
  name: string;
  path: string;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function dirs(pathVar: string | undefined): string[] {
  // An empty entry is the current directory to sh; trackctl does not run what happens to be there.
  return (pathVar ?? '').split(delimiter).filter((d) => d !== '');
}

/** The extension `name` runs, or undefined. */
export function findExtension(name: string, pathVar: string | undefined): Extension | undefined {
  if (!NAME.test(name)) return undefined;
  for (const dir of dirs(pathVar)) {
    const file = join(dir, PREFIX + name);
    if (executable(file)) return { name, path: file };
  }
  return undefined;
}

/** Every extension on PATH, by name, except names of commands. */
export function listExtensions(pathVar: string | undefined, commands: readonly string[]): Extension[] {
  const found = new Map<string, Extension>();
  for (const dir of dirs(pathVar)) {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries.sort()) {
      const name = entry.slice(PREFIX.length);
      if (!entry.startsWith(PREFIX) || !NAME.test(name) || found.has(name) || commands.includes(name)) continue;
      const file = join(dir, entry);
      if (executable(file)) found.set(name, { name, path: file });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}
