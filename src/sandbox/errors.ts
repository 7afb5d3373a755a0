/**
 * The sandbox's error shape (the interface shows none, so the sandbox defines one):
 * `{"error": code, "message": text, "status": n, "field"?: name}`.
 */

export type ErrorCode =
  | 'invalid_request'
  | 'invalid_value'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'rate_limited'
  | 'server_error';

export class SandboxError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, code: ErrorCode, message: string, field?: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.headers = headers;
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { error: this.code, message: this.message, status: this.status };
    if (this.field !== undefined) body.field = this.field;
    return body;
  }
}

export const badRequest = (message: string, field?: string): SandboxError =>
  new SandboxError(400, 'invalid_request', message, field);
export const invalidValue = (message: string, field?: string): SandboxError =>
  new SandboxError(422, 'invalid_value', message, field);
export const unauthorized = (message: string): SandboxError => new SandboxError(401, 'unauthorized', message);
export const notFound = (message: string, field?: string): SandboxError =>
  new SandboxError(404, 'not_found', message, field);
export const conflict = (message: string, field: string): SandboxError =>
  new SandboxError(409, 'conflict', message, field);
