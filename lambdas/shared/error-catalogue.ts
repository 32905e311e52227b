/**
 * Every error code this API returns, each once, with its HTTP status: the codes the Lambdas
 * throw (as `ApiError`s, `errors.ts`) and the ones API Gateway writes by itself
 * (`lib/api-gateway-settings.ts`). Code elsewhere names a code by its typed key
 * ({@link ErrorCode}), so a typo does not compile; the error responder and the OpenAPI document
 * read the status from here.
 *
 * @example
 * ERROR_CODES.CATEGORY_NOT_FOUND.status // 404
 */

/** What the catalogue knows of one code. */
export interface ErrorCodeEntry {
  /** The HTTP status of the responses that carry the code. */
  readonly status: number;
  /** Named in the spec's section 7; every other code is documented as an extension. */
  readonly spec?: true;
  /** Only API Gateway returns it (no operation documents it: it is in the document's description). */
  readonly gatewayOnly?: true;
  /** The 400 body carries the field issues (`validationErrors` or `details`). */
  readonly withIssues?: true;
  /** The message when the thrower gives none. */
  readonly message?: string;
  /** A second status of responses that carry the code, and where (kept for compatibility). */
  readonly alsoStatus?: { readonly status: number; readonly where: string };
}

export const ERROR_CODES = {
  // 400
  VALIDATION_ERROR: { status: 400, spec: true, withIssues: true, message: 'The request is not valid' },
  INVALID_ACTION: { status: 400, spec: true, withIssues: true },
  FILE_REQUIRED: { status: 400, spec: true },
  TREE_SIZE_TOO_SMALL: { status: 400 },
  // 401
  UNAUTHORIZED: { status: 401, spec: true, message: 'Missing or invalid credentials' },
  // 403: the operation table's `deniedCode`s, and a key without a usage plan
  COMPANY_ACCESS_DENIED: { status: 403, spec: true },
  FILE_ACCESS_DENIED: { status: 403, spec: true },
  FILE_DELETE_DENIED: { status: 403, spec: true },
  APP_ACCESS_DENIED: { status: 403 },
  ACCESS_DENIED: { status: 403, gatewayOnly: true },
  // 404
  RESOURCE_NOT_FOUND: { status: 404, spec: true },
  SUBCATEGORY_NOT_FOUND: { status: 404, spec: true },
  CATEGORY_NOT_FOUND: { status: 404, spec: true },
  OBJECT_NOT_FOUND: { status: 404, spec: true },
  FILE_NOT_FOUND: { status: 404, spec: true },
  UPLOAD_NOT_FOUND: { status: 404 },
  WEBHOOK_NOT_FOUND: { status: 404 },
  DELIVERY_NOT_FOUND: { status: 404 },
  IMPORT_NOT_FOUND: { status: 404 },
  EXPORT_NOT_FOUND: { status: 404 },
  EVENT_NOT_FOUND: { status: 404 },
  CHECKPOINT_NOT_FOUND: { status: 404 },
  API_KEY_NOT_FOUND: { status: 404 },
  IDENTITY_PROVIDER_NOT_FOUND: { status: 404 },
  ROUTE_NOT_FOUND: { status: 404, gatewayOnly: true },
  // 409
  CATEGORY_NAME_EXISTS: { status: 409, spec: true },
  EXTERNAL_ID_EXISTS: { status: 409, spec: true },
  USERNAME_EXISTS: { status: 409, spec: true },
  SUBCATEGORY_NAME_EXISTS: { status: 409 },
  SUBCATEGORY_NOT_ACTIVE: { status: 409 },
  INVALID_STATE_TRANSITION: { status: 409 },
  CONCURRENT_MODIFICATION: { status: 409 },
  IDEMPOTENCY_KEY_REUSED: { status: 409 },
  IDEMPOTENCY_IN_PROGRESS: { status: 409 },
  UPLOAD_NOT_RECEIVED: { status: 409 },
  IMPORT_ALREADY_STARTED: { status: 409 },
  EVENT_NOT_YET_LOGGED: { status: 409 },
  TOO_MANY_JOBS: { status: 409 },
  ISSUER_ALREADY_REGISTERED: { status: 409 },
  // 413
  FILE_TOO_LARGE: {
    status: 413,
    spec: true,
    alsoStatus: { status: 400, where: 'startImport: the presigned upload is too large, not the request' },
  },
  REQUEST_TOO_LARGE: { status: 413 },
  // 415
  UNSUPPORTED_FILE_TYPE: { status: 415, spec: true },
  // 429
  TOO_MANY_REQUESTS: { status: 429 },
  QUOTA_EXCEEDED: { status: 429, gatewayOnly: true },
  // 500
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
} as const satisfies Record<string, ErrorCodeEntry>;

/** One code of the catalogue. */
export type ErrorCode = keyof typeof ERROR_CODES;

type AlsoStatusOf<Entry> = Entry extends { alsoStatus: { status: infer Status } } ? Status : never;

/** Every status of the responses that carry the code: its own, and its `alsoStatus` if it has one. */
export type StatusOf<Code extends ErrorCode> =
  | (typeof ERROR_CODES)[Code]['status']
  | AlsoStatusOf<(typeof ERROR_CODES)[Code]>;

/** The codes whose status is `Status`, e.g. `CodeWithStatus<404>`. */
export type CodeWithStatus<Status extends number> = {
  [Code in ErrorCode]: Status extends StatusOf<Code> ? Code : never;
}[ErrorCode];

/** The catalogue's entry of a code. */
export const errorCodeEntry = (code: ErrorCode): ErrorCodeEntry => ERROR_CODES[code];

/** Every code of the catalogue. */
export const errorCodes = (): ErrorCode[] => Object.keys(ERROR_CODES) as ErrorCode[];
