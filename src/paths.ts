/**
 * Where trackctl keeps its files. Pure and cheap: it runs on every command,
 * so it imports only node:path (node:os only without HOME) and never touches the disk.
 *
 * `TRACKCTL_CONFIG_DIR` alone isolates a test run: the data directory follows
 * it (`<configDir>/data`) unless `TRACKCTL_DATA_DIR` says otherwise.
 */
import { isAbsolute, join } from 'node:path';

export interface Paths {
  /** Holds config.json (profiles; never secrets). */
  configDir: string;
  /** Holds the credential file fallback, locks and markers. */
  dataDir: string;
}

const APP = 'trackctl';

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/** The XDG spec says relative values are invalid and must be ignored. */
function xdg(value: string | undefined): string | undefined {
  const v = nonEmpty(value);
  return v !== undefined && isAbsolute(v) ? v : undefined;
}

export function resolvePaths(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Paths {
  const home = nonEmpty(env['HOME']) ?? nonEmpty(env['USERPROFILE']) ?? process.getBuiltinModule('node:os').homedir();
  const configOverride = nonEmpty(env['TRACKCTL_CONFIG_DIR']);
  const dataOverride = nonEmpty(env['TRACKCTL_DATA_DIR']);

  const configDir = configOverride ?? defaultConfigDir(env, home, platform);
  const dataDir =
    dataOverride ?? (configOverride !== undefined ? join(configOverride, 'data') : defaultDataDir(env, home, platform));
  return { configDir, dataDir };
}

// The same places env-paths (used by conf) picks, minus its `-nodejs` suffix.
function defaultConfigDir(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', APP);
  if (platform === 'win32') {
    return join(nonEmpty(env['APPDATA']) ?? join(home, 'AppData', 'Roaming'), APP, 'Config');
  }
  return join(xdg(env['XDG_CONFIG_HOME']) ?? join(home, '.config'), APP);
}

function defaultDataDir(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP);
  if (platform === 'win32') {
    return join(nonEmpty(env['LOCALAPPDATA']) ?? join(home, 'AppData', 'Local'), APP, 'Data');
  }
  return join(xdg(env['XDG_DATA_HOME']) ?? join(home, '.local', 'share'), APP);
}
