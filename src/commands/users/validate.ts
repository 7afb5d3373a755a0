/** Values of user flags, checked before anything is sent. */
import { UsageError } from '../../errors.js';
import { USER_TYPES, type UserType } from '../../api/users.js';

/** trackedUser | dispatcher, matched case-insensitively ("dispatcher", "TrackedUser"). */
export function parseUserType(value: string, flag = '--type'): UserType {
  const wanted = value.trim().toLowerCase();
  const type = USER_TYPES.find((t) => t.toLowerCase() === wanted);
  if (!type) throw new UsageError(`invalid ${flag} "${value}": use one of ${USER_TYPES.join(', ')}`);
  return type;
}

/** A plain mailbox address: local@domain.tld, no spaces, brackets or control characters. */
export function parseEmail(value: string): string {
  const v = value.trim();
  if (v.length > 254 || !/^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(v)) {
    throw new UsageError(`invalid --email "${JSON.stringify(value).slice(1, -1)}": expected an address such as name@example.com`);
  }
  return v;
}
