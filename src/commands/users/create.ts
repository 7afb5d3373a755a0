import { createUser, USER_TYPES, type NewUser } from '../../api/users.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { requireFlags, valueOrAsk } from '../../io/terminal/prompt.js';
import { parseEmail, parsePhone, parseUserType, requireText } from '../../validate.js';
import { userColumns, userFields } from './columns.js';
import type { Run } from '../action.js';

interface CreateOptions {
  name?: string;
  email?: string;
  type?: string;
  simPhone?: string;
}

export const run: Run<CreateOptions> = async (_args, opts, ctx) => {
  // Given flags are checked before anything is asked, so a bad one fails fast.
  if (opts.email !== undefined) parseEmail(opts.email);
  if (opts.type !== undefined) parseUserType(opts.type);
  const phone = parsePhone(opts.simPhone);
  requireFlags(ctx, [[opts.name, '--name'], [opts.email, '--email'], [opts.type, '--type', USER_TYPES]]);

  const name = requireText(await valueOrAsk(ctx, opts.name, '--name', 'Full name:'), '--name', 'name');
  const email = parseEmail(
    await valueOrAsk(ctx, opts.email, '--email', 'E-mail address:', {
      validate: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? true : 'expected an address such as name@example.com'),
    }),
  );
  const userType = parseUserType(await valueOrAsk(ctx, opts.type, '--type', 'User type:', { choices: USER_TYPES }));
  const user: NewUser = { name, email, userType };
  if (phone !== undefined) user.simPhoneNumber = phone;

  const out = await ctx.output({ fields: userFields() });
  const { record, raw } = await createUser(await ctx.api(), user);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, userColumns(), out);
  if (!ctx.globals.quiet && out.tty) ctx.io.err(`Created user ${record.uid}.`);
};
