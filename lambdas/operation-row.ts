/**
 * What a row of the operation table holds (`lambdas/operations.ts` lists the rows; each group of
 * rows is in `lambdas/operations/`). A handler imports only its own group, so that its bundle
 * holds its own rows and schemas, not every operation's.
 */
import type { BackgroundJobName } from '#shared/background-jobs.js';
import type { CodeWithStatus } from '#shared/error-catalogue.js';
import type { Permission, PrincipalType } from '#shared/principal.js';
import type { ObjectSchema } from '#shared/schema.js';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A route's methods: the row's, and HEAD beside a document's GET (`methodsOfRow`). */
export type RouteMethod = HttpMethod | 'HEAD';

// biome-ignore lint/suspicious/noExplicitAny: a table of schemas of every shape
type AnyObjectSchema = ObjectSchema<any>;

/** The fields of every row, whether or not its callers present a key. */
interface OperationFields {
  method: HttpMethod;
  /** API Gateway path template, `{name}` for path parameters. */
  path: string;
  /** Handler module under `lambdas/handlers/`, without extension; it exports `handler`. */
  handler: string;
  summary: string;
  /** Subcategory operations report validation issues as `details` instead of `validationErrors`. */
  errorFormat?: 'validationErrors' | 'details';
  pathParameters?: AnyObjectSchema;
  query?: AnyObjectSchema;
  body?: AnyObjectSchema;
  /** A `multipart/form-data` body (also accepted as JSON without the file): its text fields and its file part. */
  form?: {
    fields: AnyObjectSchema;
    fileField: string;
    maxFileBytes: number;
    /** Content types in which the file may also come as the whole body (then with no fields). */
    rawTypes?: readonly string[];
  };
  /**
   * A `multipart/form-data` upload read as a stream (never parsed whole here): its text fields
   * and file part. The handler hands it to the upload, which reads the body by it; the OpenAPI
   * document describes it, and the local gateway streams such bodies instead of buffering them.
   */
  streamedBody?: { fields: AnyObjectSchema; fileField: string; maxFileBytes: number };
  /**
   * A GET that serves a document or a download also serves `HEAD` (GET's status and headers, no
   * body). Only those: every HEAD method is one more API Gateway method and Lambda permission in
   * a stack that CloudFormation caps at 500 resources.
   */
  head?: true;
  /** A creating POST: an `Idempotency-Key` header makes retries return the first response. */
  idempotent?: boolean;
  /**
   * Body fields that are secrets (a password): the `Idempotency-Key` record keeps only an
   * scrypt digest of them in its request fingerprint, never a fast hash.
   */
  secretFields?: readonly string[];
  /**
   * The success response carries a credential (a signing secret, a session token): it is sent
   * with `Cache-Control: no-store`, so that no browser or proxy cache keeps it.
   */
  responseHasCredential?: true;
  /**
   * What the operation's code calls on the data stores: its function's IAM policy is derived
   * from this and nothing else (least privilege, `lib/operation-access.ts`). `table`: DynamoDB
   * actions on the table's items (a `TransactWriteItems` needs the action of each of its items:
   * Put → PutItem, Update → UpdateItem, Delete → DeleteItem); `indexes`: the indexes it
   * queries; `files`: S3 actions on the files bucket's file keys `companies/*`; `uploads`: on
   * the staging keys of presigned uploads `uploads/*` (`ListBucket`, in either list, applies to
   * the bucket, so that a missing key reads as 404, not 403). Idempotency records of
   * `idempotent` rows are granted apart. A row without it gets no data access at all.
   */
  access?: {
    table?: readonly (
      | 'GetItem'
      | 'BatchGetItem'
      | 'Query'
      | 'PutItem'
      | 'UpdateItem'
      | 'DeleteItem'
      | 'ConditionCheckItem'
      | 'BatchWriteItem'
    )[];
    indexes?: readonly import('#repositories/table-definition.js').IndexName[];
    files?: readonly (
      | 'GetObject'
      | 'GetObjectVersion'
      | 'PutObject'
      | 'AbortMultipartUpload'
      | 'DeleteObject'
      | 'DeleteObjectVersion'
      | 'ListBucket'
    )[];
    uploads?: NonNullable<OperationFields['access']>['files'];
    /** KMS actions on the stack's secrets key (webhook signing secrets are sealed with it). */
    secrets?: readonly 'Encrypt'[];
    /** SQS actions on the webhook delivery queue. */
    deliveryQueue?: readonly 'SendMessage'[];
    /** S3 actions on the log's files (`log/*`: tiles, checkpoints) in the Object Lock bucket. */
    log?: readonly 'GetObject'[];
  };
  /** Background jobs the operation starts (its function may invoke theirs). */
  backgroundJobs?: readonly BackgroundJobName[];
  /** Status of the successful response. */
  successStatus: number;
}

/** The parts of a parsed request that a condition of `conditionalPermissions` may look at. */
export interface RequestParts {
  path: Readonly<Record<string, unknown>>;
  query: Readonly<Record<string, unknown>>;
  body: Readonly<Record<string, unknown>>;
  /** The text fields of a form body (rows with `form`). */
  fields: Readonly<Record<string, unknown>>;
}

/** Permissions a request needs too when it meets a condition (`KeyedOperation.conditionalPermissions`). */
export interface ConditionalPermissions {
  /** The condition in words, as the 403 message and the OpenAPI description say it. */
  when: string;
  permissions: readonly Permission[];
  /**
   * Whether a parsed request meets the condition: the shared handler checks it once the request
   * is parsed, before any work. Absent when the condition lies in stored data (an import job's
   * `createMissing`): then the handler calls `requireConditionalPermissions` once it knows.
   */
  appliesTo?: (request: RequestParts) => boolean;
}

/** A row whose callers present an API key (or a wallet session): the API-key authorizer runs first. */
export interface KeyedOperation extends OperationFields {
  /** The default: the API-key authorizer. */
  authorization?: 'apiKey';
  /** Which kind of key may call it: a company's or an App's. */
  principal: PrincipalType;
  permission: Permission;
  /**
   * What a request needs beyond `permission` when it changes more kinds of data than the
   * operation's own (docs/api-decisions.md, "API keys and authorization"): by condition name.
   * A key without them gets 403 `deniedCode`, naming the permissions and the condition.
   */
  conditionalPermissions?: Readonly<Record<string, ConditionalPermissions>>;
  /** The 403 code when the key lacks the permission or is of the other kind. */
  deniedCode: CodeWithStatus<403>;
  /**
   * Any valid API key may call it, a company's or an App's, whatever its permissions (the
   * log's public reads); `principal` and `permission` then only name the default for docs.
   */
  anyKey?: boolean;
  /** The path names a company (`companyId`): another company's id is refused with `deniedCode`, before the body is read. */
  companyInPath?: boolean;
  /**
   * It reads the audit trail (ledger proofs, bundles, exports, imports' reports): a person whose
   * role may not (`viewer`, `lambdas/shared/roles.ts`) is refused; any key with the permission may.
   */
  auditTrail?: true;
  /**
   * It manages the company's access (its API keys, its identity providers): only a person whose
   * role may (`managesAccess`, `lambdas/shared/roles.ts`: admin); every API key is refused, so
   * that a leaked key cannot mint keys or trust another issuer. `permission` then names the one
   * permission only that role holds, for the docs.
   */
  accessManagement?: true;
}

/**
 * A row that takes no key and runs no authorizer: wallet login (the App comes from the
 * username) and the OpenAPI document. It has no caller, so no permission or 403 applies.
 */
interface PublicOperation extends OperationFields {
  authorization: 'none';
}

/** A row of the operation table. */
export type Operation = KeyedOperation | PublicOperation;

/** The row itself when its callers present a key; undefined for a public row. */
export const keyedOperation = (operation: Operation): KeyedOperation | undefined =>
  operation.authorization === 'none' ? undefined : operation;

export const companyOperation = { principal: 'company', deniedCode: 'COMPANY_ACCESS_DENIED' } as const;
export const appOperation = { principal: 'app', deniedCode: 'APP_ACCESS_DENIED' } as const;
export const subcategoryOperation = { ...companyOperation, errorFormat: 'details' } as const;

/**
 * A group of rows, each with its id (its key) stamped on as `id`, so that a handler's row names
 * its operation (metrics, logs) without the whole table.
 *
 * @example
 * export const noteOperations = withIds({ getNote: { ... } } as const satisfies Record<string, Operation>);
 * noteOperations.getNote.id; // 'getNote'
 */
export function withIds<const Rows extends Record<string, Operation>>(
  rows: Rows,
): { [Id in keyof Rows]: Rows[Id] & { readonly id: Id } } {
  return Object.fromEntries(Object.entries(rows).map(([id, row]) => [id, { ...row, id }])) as never;
}

/**
 * Every permission a request of the row needs when it meets the named conditions: the row's own
 * permission and those of each condition (the permission matrix test derives its table from it).
 */
export const permissionsNeeded = (
  operation: KeyedOperation,
  conditions: readonly string[] = [],
): Permission[] => [
  ...new Set([
    operation.permission,
    ...conditions.flatMap((name) => {
      const condition = operation.conditionalPermissions?.[name];
      if (!condition) throw new Error(`${operation.handler} declares no condition ${name}`);
      return condition.permissions;
    }),
  ]),
];

/** The id `withIds` stamped on a row; undefined for a row that is not in the table (tests). */
export const operationIdOf = (operation: Operation): string | undefined =>
  (operation as { readonly id?: string }).id;

/** The HTTP methods of a row's route: its own, and HEAD beside a GET that serves a document. */
export const methodsOfRow = (operation: Operation): RouteMethod[] =>
  operation.method === 'GET' && operation.head ? ['GET', 'HEAD'] : [operation.method];
