/**
 * Errors a user can cause. Their message is safe to show as it is; anything else that escapes a
 * resolver or handler is masked as an unexpected error and logged without request data.
 */
export type ErrorCode = "BAD_USER_INPUT" | "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "TOO_MANY_REQUESTS" | "CHALLENGE_REQUIRED" | "UNAVAILABLE";

const STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  CHALLENGE_REQUIRED: 428,
  UNAVAILABLE: 503,
};

export interface FieldProblem {
  field: string;
  message: string;
}

export class UserError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldProblem[];
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: { fields?: FieldProblem[]; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "UserError";
    this.code = code;
    this.fields = options.fields ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export const forbidden = (message = "You do not have permission to do this.") => new UserError("FORBIDDEN", message);
export const notFound = (message: string) => new UserError("NOT_FOUND", message);
export const badInput = (message: string, fields: FieldProblem[] = []) => new UserError("BAD_USER_INPUT", message, { fields });
