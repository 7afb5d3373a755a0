/** Opens a file in the default browser: $BROWSER when set, else the platform's opener. Never waits for the browser. */
import { spawn } from 'node:child_process';

const LAUNCH_WAIT_MS = 1500;

export interface Opened {
  ok: boolean;
  reason?: string;
}

/** The command that opens `file`: $BROWSER (its %s replaced, else the file appended), or open, start, xdg-open. */
export function browserCommand(file: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): [string, string[]] {
  const browser = env.BROWSER?.split(':')[0]?.trim();
  if (browser) {
    const words = browser.split(/\s+/);
    const args = words.slice(1);
    return args.some((a) => a.includes('%s')) ? [words[0]!, args.map((a) => a.replaceAll('%s', file))] : [words[0]!, [...args, file]];
  }
  if (platform === 'darwin') return ['open', [file]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', file]];
  return ['xdg-open', [file]];
}

export function openInBrowser(file: string, env: NodeJS.ProcessEnv): Promise<Opened> {
  const [command, args] = browserCommand(file, env);
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, { stdio: 'ignore', detached: true, env });
    } catch (err) {
      resolve({ ok: false, reason: `${command}: ${(err as Error).message}` });
      return;
    }
    child.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, reason: err.code === 'ENOENT' ? `${command} is not installed` : `${command}: ${err.message}` }));
    // A launcher (xdg-open, open) exits at once, non-zero when it found no browser (no display):
    // wait that long for a verdict; a browser that keeps running has started, and runs on without us.
    const timer = setTimeout(() => {
      child.unref();
      resolve({ ok: true });
    }, LAUNCH_WAIT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true } : { ok: false, reason: `${command} exited with ${code ?? signal}` });
    });
  });
}
