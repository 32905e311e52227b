/**
 * Typed errors of the API. Domain, repository and handler code throw these with a code of the
 * catalogue (`error-catalogue.ts`), which holds each code's HTTP status; the error middleware
 * (`error-responder.ts`) is the one place that turns them into the spec's error bodies.
 */
import { type CodeWithStatus, ERROR_CODES, type ErrorCode, type StatusOf } from './error-catalogue.js';

/** One entry of the spec's `validationErrors` array. */
export interface FieldIssue {
  field: string;
  message: string;
  /** `REQUIRED`, `LENGTH_INVALID`, `ENUM_INVALID` (spec), or our documented additions `TYPE_INVALID`, `FORMAT_INVALID`, `RANGE_INVALID`, `SIZE_INVALID`. */
  code: string;
}

/** The codes whose 400 body carries the field issues. */
export type CodeWithIssues = {
  [Code in ErrorCode]: (typeof ERROR_CODES)[Code] extends { withIssues: true } ? Code : never;
}[ErrorCode];

/**
 * Base class: a code of the catalogue and a human-readable message. The status is the
 * catalogue's; a subclass may name the code's other status (`alsoStatus`), which the types check.
 */
export class ApiError<Code extends ErrorCode = ErrorCode> extends Error {
  /** Headers of the error response (`Retry-After`, ...). */
  readonly headers: Record<string, string> = {};
  /** The HTTP status the error responder responds with. */
  readonly statusCode: number;
  constructor(
    readonly code: Code,
    message: string,
    statusCode: StatusOf<Code> = ERROR_CODES[code].status,
  ) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
  }
}

/** 400 with the list of field issues: `VALIDATION_ERROR`, or another code such as `INVALID_ACTION`. */
export class ValidationError extends ApiError<CodeWithIssues> {
  constructor(
    readonly issues: FieldIssue[],
    message: string = ERROR_CODES.VALIDATION_ERROR.message,
    code: CodeWithIssues = 'VALIDATION_ERROR',
  ) {
    super(code, message, 400);
  }
}

/** 400 with a code of its own (`INVALID_ACTION`, `FILE_REQUIRED`, ...). */
export class BadRequestError extends ApiError<CodeWithStatus<400>> {
  constructor(code: CodeWithStatus<400>, message: string) {
    super(code, message, 400);
  }
}

/** 401 `UNAUTHORIZED`. */
export class UnauthorizedError extends ApiError<'UNAUTHORIZED'> {
  constructor(message: string = ERROR_CODES.UNAUTHORIZED.message) {
    super('UNAUTHORIZED', message);
  }
}

/** 403 with the operation's access-denied code. */
export class ForbiddenError extends ApiError<CodeWithStatus<403>> {
  constructor(code: CodeWithStatus<403>, message: string) {
    super(code, message, 403);
  }
}

/** 404 with a resource-specific code (`CATEGORY_NOT_FOUND`, ...). */
export class NotFoundError extends ApiError<CodeWithStatus<404>> {
  constructor(code: CodeWithStatus<404>, message: string) {
    super(code, message, 404);
  }
}

/** 409 with a resource-specific code (`CATEGORY_NAME_EXISTS`, ...). */
export class ConflictError extends ApiError<CodeWithStatus<409>> {
  constructor(code: CodeWithStatus<409>, message: string) {
    super(code, message, 409);
  }
}

/** 413 `FILE_TOO_LARGE` and other size refusals. */
export class PayloadTooLargeError extends ApiError<CodeWithStatus<413>> {
  constructor(code: CodeWithStatus<413>, message: string) {
    super(code, message, 413);
  }
}

/** 415 for bodies of a type the operation does not take. */
export class UnsupportedMediaTypeError extends ApiError<CodeWithStatus<415>> {
  constructor(code: CodeWithStatus<415>, message: string) {
    super(code, message, 415);
  }
}

// Builders of the errors thrown from more than one place, each written once.

/**
 * No such category in the caller's company.
 *
 * @example
 * if (!category) throw categoryNotFound(categoryId);
 */
export const categoryNotFound = (categoryId: string): NotFoundError =>
  new NotFoundError('CATEGORY_NOT_FOUND', `No category ${categoryId} in this company`);

/** No such subcategory (or a removed one) in the category. */
export const subcategoryNotFound = (subcategoryId: string): NotFoundError =>
  new NotFoundError('SUBCATEGORY_NOT_FOUND', `No subcategory ${subcategoryId} in this category`);

/** An uploaded file over the operation's limit. */
export const fileTooLarge = (maxBytes: number): PayloadTooLargeError =>
  new PayloadTooLargeError('FILE_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
