/**
 * Credentials as the S3 client asks for them: fixed keys, or temporary ones that are fetched
 * again before they expire, because a lake run can outlive them (STS hands out an hour, the
 * instance metadata service six) and keeps uploading.
 */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface TemporaryCredentials extends S3Credentials {
  /** undefined: they do not expire (keys, or a credential_process that gives no Expiration). */
  expiration?: Date;
}

export interface CredentialProvider {
  /** Where the credentials come from, for messages ("the environment", "web identity (AWS_ROLE_ARN …)"). */
  readonly source: string;
  /** Credentials valid for at least a minute more; fetched again when due. */
  get(): Promise<S3Credentials>;
}

/** How long before they expire credentials are fetched again (as the AWS SDKs do). */
const REFRESH_BEFORE_MS = 5 * 60_000;
/** A failed refresh keeps the old credentials while they have this much left … */
const STILL_GOOD_MS = 60_000;
/** … and is tried again after this long: a blip at STS does not end a long run. */
const RETRY_AFTER_MS = 30_000;

export function fixedCredentials(source: string, credentials: S3Credentials): CredentialProvider {
  return { source, get: () => Promise.resolve(credentials) };
}

/** When to fetch again: 5 minutes before expiry, or halfway for credentials that live less than 10 minutes. */
function refreshTime(credentials: TemporaryCredentials, now: number): number | undefined {
  if (credentials.expiration === undefined) return undefined;
  const expires = credentials.expiration.getTime();
  return expires - Math.min(REFRESH_BEFORE_MS, Math.max(0, expires - now) / 2);
}

/** `first` (just fetched), then `fetch` again whenever they are due; concurrent callers share one fetch. */
export function refreshingCredentials(source: string, fetch: () => Promise<TemporaryCredentials>, first: TemporaryCredentials, now: () => number): CredentialProvider {
  let current = first;
  let due = refreshTime(first, now());
  let pending: Promise<void> | undefined;
  const refresh = async (): Promise<void> => {
    try {
      current = await fetch();
      due = refreshTime(current, now());
    } catch (err) {
      if (current.expiration !== undefined && current.expiration.getTime() - now() > STILL_GOOD_MS) {
        due = now() + RETRY_AFTER_MS;
        return;
      }
      throw err;
    }
  };
  return {
    source,
    async get() {
      if (due !== undefined && now() >= due) {
        pending ??= refresh().finally(() => (pending = undefined));
        await pending;
      }
      return current;
    },
  };
}
