/** Location shares: /v2/location-shares/, keyed by the string sid. */
import type { Api } from './client.js';
import { path } from './client.js';
import { decodeList, decodeOne, decodeSuccess, type Listed, type One } from './envelope.js';
import type { Share } from './types.js';

/**
 * A new share: exactly one target (did or gid), a name, and at most one expiration
 * mode — absolute `expiration` (unix seconds), relative days/hours/minutes (numeric
 * strings), or neither (the share never expires).
 */
export interface NewShare {
  did?: number;
  gid?: number;
  name: string;
  expiration?: number;
  days?: string;
  hours?: string;
  minutes?: string;
}

/** Only these may change; expiration is unix seconds. */
export interface ShareChanges {
  name?: string;
  expiration?: number;
}

export async function listShares(api: Api): Promise<Listed<Share>> {
  return decodeList<Share>(await api.call({ method: 'GET', path: '/v2/location-shares/' }), 'sid');
}

export async function getShare(api: Api, sid: string): Promise<One<Share>> {
  return decodeOne<Share>(await api.call({ method: 'GET', path: path`/v2/location-shares/${sid}` }), 'sid');
}

/** The reply's `id` is an integer row number, not the sid: take the sid from the record. */
export async function createShare(api: Api, share: NewShare): Promise<One<Share>> {
  return decodeOne<Share>(await api.call({ method: 'POST', path: '/v2/location-shares/', body: share }), 'sid');
}

export async function updateShare(api: Api, sid: string, changes: ShareChanges): Promise<One<Share>> {
  return decodeOne<Share>(await api.call({ method: 'PATCH', path: path`/v2/location-shares/${sid}`, body: changes }), 'sid');
}

export async function deleteShare(api: Api, sid: string): Promise<string> {
  return decodeSuccess(await api.call({ method: 'DELETE', path: path`/v2/location-shares/${sid}` }));
}

/** The public link of a share: {share_url}/share/<sid>. */
export function shareLink(shareUrl: string, sid: string): string {
  return `${shareUrl.replace(/\/+$/, '')}/share/${encodeURIComponent(sid)}`;
}
