/**
 * Typed errors of the API. Domain and handler code throw these; the error middleware
 * (`error-responder.ts`) is the one place that turns them into the spec's error bodies.
 */

/** One entry of the spec's `validationErrors` array. */
export interface FieldIssue {
  field: string;
  message: string;
  /** `REQUIRED`, `LENGTH_INVALID`, `ENUM_INVALID` (spec), or our documented additions `TYPE_INVALID`, `FORMAT_INVALID`, `RANGE_INVALID`, `SIZE_INVALID`. */
  code: string;
}

/** Base class: an HTTP status, a spec error code and a human-readable message. */
export class ApiError extends Error {
  /** Headers of the error answer (`Retry-After`, ...). */
  readonly headers: Record<string, string> = {};
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400 with the list of field issues: `VALIDATION_ERROR`, or another code such as `INVALID_ACTION`. */
export class ValidationError extends ApiError {
  constructor(
    readonly issues: FieldIssue[],
    message = 'The request is not valid',
    code = 'VALIDATION_ERROR',
  ) {
    super(400, code, message);
  }
}

/** 400 with a code of its own (`INVALID_ACTION`, `FILE_REQUIRED`, ...). */
export class BadRequestError extends ApiError {
  constructor(code: string, message: string) {
    super(400, code, message);
  }
}

/** 401 `UNAUTHORIZED`. */
export class UnauthorizedError extends ApiError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, 'UNAUTHORIZED', message);
  }
}

/** 403 with the operation's access-denied code. */
export class ForbiddenError extends ApiError {
  constructor(code: string, message: string) {
    super(403, code, message);
  }
}

/** 404 with a resource-specific code (`CATEGORY_NOT_FOUND`, ...). */
export class NotFoundError extends ApiError {
  constructor(code: string, message: string) {
    super(404, code, message);
  }
}

/** 409 with a resource-specific code (`CATEGORY_NAME_EXISTS`, ...). */
export class ConflictError extends ApiError {
  constructor(code: string, message: string) {
    super(409, code, message);
  }
}

/** 413 `FILE_TOO_LARGE` and other size refusals. */
export class PayloadTooLargeError extends ApiError {
  constructor(code: string, message: string) {
    super(413, code, message);
  }
}

/** 415 for bodies of a type the operation does not take. */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(code: string, message: string) {
    super(415, code, message);
  }
}
