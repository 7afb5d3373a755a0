/** E-mail and password for login and token create: flag/stdin → environment → prompt (TTY only). */
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import { requireFlags, valueOrAsk } from '../../io/terminal/prompt.js';

export interface CredentialFlags {
  email?: string;
  passwordStdin?: boolean;
}

async function readStdin(ctx: Context): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += String(chunk);
  // Only the line end is trimmed: a password may begin or end with spaces.
  return text.replace(/\r?\n$/, '');
}

export async function emailAndPassword(ctx: Context, flags: CredentialFlags): Promise<{ email: string; password: string }> {
  const givenEmail = flags.email ?? (ctx.env.TRACKCTL_EMAIL || undefined);
  const givenPassword = flags.passwordStdin ? true : ctx.env.TRACKCTL_PASSWORD || undefined;
  requireFlags(ctx, [[givenEmail, '--email'], [givenPassword, '--password-stdin']], 'Or set TRACKCTL_EMAIL and TRACKCTL_PASSWORD.');
  const email = (await valueOrAsk(ctx, givenEmail, '--email (or TRACKCTL_EMAIL)', 'E-mail address:')).trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`invalid e-mail address "${email}"`);
  let password: string | undefined;
  if (flags.passwordStdin) {
    if (ctx.io.stdinIsTTY && !ctx.interactive()) throw new UsageError('--password-stdin needs the password piped in');
    password = await readStdin(ctx);
    if (password === '') throw new UsageError('--password-stdin: standard input was empty');
  } else {
    password = ctx.env.TRACKCTL_PASSWORD || undefined;
  }
  password = await valueOrAsk(ctx, password, '--password-stdin (or TRACKCTL_PASSWORD)', 'Password:', { secret: true });
  return { email, password };
}
