/**
 * The top-level commands' names, in help order, each group one command and its other names.
 * Plain data, so the commands that must know them (alias set, extension list) need not load
 * the program that defines them (src/program.ts, which maps each group to its definition).
 */
export const COMMAND_GROUPS = [
  ['login', 'logout', 'token'],
  ['config'],
  ['devices'],
  ['sensors'],
  ['users'],
  ['groups'],
  ['shares'],
  ['units'],
  ['api'],
  ['sandbox'],
  ['history'],
  ['report'],
  ['watch'],
  ['wait'],
  ['apply'],
  ['export'],
  ['map'],
  ['alias'],
  ['extension'],
  ['completion', '__complete', '__gen'],
  ['help'],
] as const;

/** Every top-level command name: what an alias may not shadow, and what is never an alias or extension. */
export const COMMAND_NAMES: readonly string[] = COMMAND_GROUPS.flat();
