/**
 * A profile's credential_process: a command (run by the shell, as the AWS CLI runs it) that
 * prints {"Version": 1, "AccessKeyId", "SecretAccessKey", "SessionToken"?, "Expiration"?} on
 * stdout. Its stderr goes to ours, so its prompts and errors reach the user; its stdin is
 * closed: it must not read ours.
 */
import { spawn } from 'node:child_process';
import { AuthError, UsageError } from '../../errors.js';
import type { TemporaryCredentials } from './refresh.js';

export async function processCredentials(profile: string, command: string, now: number): Promise<TemporaryCredentials> {
  const what = `the credential_process of the AWS profile "${profile}"`;
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (err) => reject(new UsageError(`${what} did not start: ${err.message}`)));
    child.on('close', (exit) => resolve({ code: exit, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
  if (code !== 0) throw new AuthError(`${what} failed (exit ${code ?? 'by a signal'})`);
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    throw new UsageError(`${what} did not print JSON`);
  }
  if (data.Version !== 1) throw new UsageError(`${what} printed Version ${JSON.stringify(data.Version)}, not 1`);
  const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = data;
  if (typeof AccessKeyId !== 'string' || AccessKeyId === '' || typeof SecretAccessKey !== 'string' || SecretAccessKey === '') {
    throw new UsageError(`${what} printed no AccessKeyId or SecretAccessKey`);
  }
  if (SessionToken !== undefined && typeof SessionToken !== 'string') throw new UsageError(`${what} printed a SessionToken that is not a string`);
  let expiration: Date | undefined;
  if (Expiration !== undefined) {
    const at = typeof Expiration === 'string' ? Date.parse(Expiration) : NaN;
    if (Number.isNaN(at)) throw new UsageError(`${what} printed an Expiration that is not an ISO 8601 time`);
    if (at <= now) throw new AuthError(`${what} printed credentials that expired at ${new Date(at).toISOString()}`);
    expiration = new Date(at);
  }
  return { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, ...(SessionToken ? { sessionToken: SessionToken } : {}), ...(expiration ? { expiration } : {}) };
}
