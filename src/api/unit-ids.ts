/**
 * Unit commands take a unit's did. A tracked user has two ids: its own (uid, which `units`
 * and `users list` show as ID) and its device's (did, the unit). When the service knows no
 * unit by an id, the user list says whether it is a tracked user's uid, and the error then
 * names the did to use. Asked only after a not-found, so a did costs no extra request.
 */
import { NotFoundError } from '../errors.js';
import type { Api } from './client.js';
import { listUsers } from './users.js';

/** `notFound` as it is, or one that names the tracked user `id` belongs to and its did. */
export async function explainUnitNotFound(api: Api, id: number, notFound: NotFoundError): Promise<NotFoundError> {
  const users = await listUsers(api).catch(() => undefined);
  const user = users?.records.find((u) => Number(u.uid) === id);
  if (user === undefined) return notFound;
  const did = Number(user.did);
  const who = `it is the user id of ${user.userType === 'trackedUser' ? 'tracked user' : user.userType} ${JSON.stringify(user.name)}`;
  if (user.userType !== 'trackedUser' || !Number.isInteger(did) || did <= 0) {
    return new NotFoundError(`unit ${id} not found: ${who}, who has no unit`, { cause: notFound });
  }
  return new NotFoundError(`unit ${id} not found: ${who}; their unit (device) is ${did}: use ${did}`, { cause: notFound });
}
