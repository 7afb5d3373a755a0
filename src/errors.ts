/**
 * Typed errors. Every failure a user can meet is one of these classes, and
 * `exitCodeFor` is the single place that maps them to the exit codes of the
 * design (0 ok, 1 service, 2 usage, 3 auth, 4 not found, 6 network, 7 partial, 8 timed out, 130 interrupted).
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

/** Ctrl-C at a prompt or SIGINT during work. */
export class InterruptedError extends TrackctlError {
  constructor(message = 'interrupted') {
    super(message);
  }
}

/** `wait --timeout` ran out before the condition held. */
export class WaitTimeout extends TrackctlError {}

export function exitCodeFor(err: unknown): ExitCodeValue {
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof AuthError) return ExitCode.auth;
  if (err instanceof NotFoundError) return ExitCode.notFound;
  if (err instanceof NetworkError) return ExitCode.network;
  if (err instanceof PartialFailure) return ExitCode.partial;
  if (err instanceof InterruptedError) return ExitCode.interrupted;
  if (err instanceof WaitTimeout) return ExitCode.timedOut;
  if (err instanceof ApiError) return ExitCode.service;
  return ExitCode.service;
}
