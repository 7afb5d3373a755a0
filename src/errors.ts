/**
 * Typed errors. Every failure a user can meet is one of these classes, and
 * `exitCodeFor` is the single place that maps them to the exit codes of the
 * design (0 ok, 1 failed here or at the service, 2 usage, 3 auth, 4 not found, 6 network, 7 partial,
 * 8 timed out, 130 interrupted, 143 terminated).
 */

export const ExitCode = {
  ok: 0,
  service: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  network: 6,
  partial: 7,
  timedOut: 8,
  interrupted: 130,
  /** The reader of stdout went away (`| head`): what a shell reports for a program killed by SIGPIPE. */
  readerLeft: 141,
  /** SIGTERM (a supervisor stopping the run): 128 + 15, as a shell reports a process it ended. */
  terminated: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class TrackctlError extends Error {
  /** A line printed after the message, e.g. what to run next. */
  hint?: string;
  constructor(message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.hint) this.hint = options.hint;
  }
}

/** Bad flags, values or files: nothing was sent. */
export class UsageError extends TrackctlError {}

/** Not signed in, or credentials rejected and not renewable. */
export class AuthError extends TrackctlError {}

/** The service answered 404 for the thing asked for. */
export class NotFoundError extends TrackctlError {}

/** The service refused or failed (any other non-2xx, or a body of the wrong shape). */
export class ApiError extends TrackctlError {
  readonly status: number;
  constructor(message: string, status: number, options?: { cause?: unknown; hint?: string }) {
    super(message, options);
    this.status = status;
  }
}

/** Connection failure or timeout after retries. */
export class NetworkError extends TrackctlError {}

/** Some items of a bulk operation failed; each was reported already. */
export class PartialFailure extends TrackctlError {
  readonly failed: number;
  readonly total: number;
  constructor(failed: number, total: number, message?: string) {
    super(message ?? `${failed} of ${total} failed`);
    this.failed = failed;
    this.total = total;
  }
}

/**
 * The output's target did not take the bytes: its reader went away (EPIPE), the disk is full.
 * Nothing written since the last acknowledged point counts as delivered (exit 1).
 */
export class DeliveryError extends TrackctlError {}

/**
 * A failure printed already, where it happened (a unit's line): the run ends with that
 * failure's exit code and prints at most a summary (the message; empty: nothing).
 */
export class Reported extends TrackctlError {
  readonly failure: unknown;
  constructor(failure: unknown, summary = '') {
    super(summary);
    this.failure = failure;
  }
}

/**
 * A local file or stream could not be written or read (a full disk, a directory that is
 * a file, no permission). Exit 1, "failed, here or at the service"; the message names the path.
 */
export class LocalIOError extends TrackctlError {
  readonly path: string;
  readonly code: string | undefined;
  constructor(message: string, path: string, code: string | undefined, options?: { cause?: unknown; hint?: string }) {
    super(message, options);
    this.path = path;
    this.code = code;
  }
}

const ERRNO_TEXT: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'is a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'exists already',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
};

/** Whether a Node error is one of the file system's (a full disk, a missing directory…), not the network's. */
export function isLocalIOFailure(err: unknown): boolean {
  const code = errnoCode(err);
  return code !== undefined && code in ERRNO_TEXT;
}

/** The errno code of a Node error (ENOSPC…), if it has one. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/**
 * A failed local write as a LocalIOError naming `target` ("stdout", "--output-file FILE", a path);
 * errors of ours pass through unchanged, so a failure is wrapped (and printed) once.
 */
export function localIOError(err: unknown, target: string, verb = 'write'): TrackctlError {
  if (err instanceof TrackctlError) return err;
  const code = errnoCode(err);
  const message = err instanceof Error ? err.message : String(err);
  const reason = code === undefined ? message : `${ERRNO_TEXT[code] ?? message.replace(/^E[A-Z0-9]+: /, '')} (${code})`;
  return new LocalIOError(`cannot ${verb} ${target}: ${reason}`, target, code, { cause: err });
}

/** Ctrl-C at a prompt or SIGINT during work. */
export class InterruptedError extends TrackctlError {
  constructor(
    message = 'interrupted',
    /** What stopped the run: Ctrl-C (exit 130) or SIGTERM (exit 143). */
    readonly signal: 'SIGINT' | 'SIGTERM' = 'SIGINT',
  ) {
    super(message);
  }
}

/** A run stopped by a signal: "interrupted" for SIGINT, "terminated" for SIGTERM. */
export function interruptedBy(signal: NodeJS.Signals): InterruptedError {
  return signal === 'SIGTERM' ? new InterruptedError('terminated', 'SIGTERM') : new InterruptedError();
}

/** `wait --timeout` ran out before the condition held. */
export class WaitTimeout extends TrackctlError {}

export function exitCodeFor(err: unknown): ExitCodeValue {
  if (err instanceof Reported) return exitCodeFor(err.failure);
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof AuthError) return ExitCode.auth;
  if (err instanceof NotFoundError) return ExitCode.notFound;
  if (err instanceof NetworkError) return ExitCode.network;
  if (err instanceof PartialFailure) return ExitCode.partial;
  if (err instanceof InterruptedError) return err.signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
  if (err instanceof WaitTimeout) return ExitCode.timedOut;
  if (err instanceof ApiError) return ExitCode.service;
  return ExitCode.service;
}
