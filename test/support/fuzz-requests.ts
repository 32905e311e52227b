/**
 * fast-check arbitraries of HTTP requests for one operation of the table, for the fuzz tests:
 * path ids (the ids of real resources, other UUIDs, junk), query strings and bodies built from
 * the operation's own schemas (values that pass, values of the wrong type, huge strings,
 * unicode with lone surrogates and control characters, deep nesting), raw bodies that are not
 * JSON, multipart bodies (well-formed, truncated, with a wrong boundary) and credentials (the
 * right key, none, a garbage key, a key of the other kind, a key without permissions, a wallet
 * session token). A third of the requests are well-formed (the right key, real ids, passing
 * values), so that the fuzzing also reaches the domain rules behind the checks.
 */
import fc from 'fast-check';
import { keyedOperation, type Operation } from '../../lambdas/operation-row';
import type { OperationId } from '../../lambdas/operations';
import { COMPANY_PERMISSIONS, type PrincipalType } from '../../lambdas/shared/principal';
import type { JsonSchema } from '../../lambdas/shared/schema';

/** The resources and credentials a fuzz run can point its requests at. */
export interface FuzzWorld {
  companyId: string;
  companyKey: string;
  /** A key of the same company with no permission. */
  noPermissionKey: string;
  /** A key of the company for `revokeApiKey` to revoke (again and again: each answers 204). */
  revocableKeyId: string;
  /**
   * A person's token with the admin role, sent as `Authorization: Bearer`: the one credential
   * the rows marked `accessManagement` take.
   */
  adminToken: string;
  appId: string;
  appKey: string;
  categoryId: string;
  categoryName: string;
  subcategoryId: string;
  objectId: string;
  externalId: string;
  fileId: string;
  uploadId: string;
  walletId: string;
  walletUsername: string;
  walletPassword: string;
  walletToken: string;
  /** An import job of the company (extension). */
  importId: string;
  /** An export job of the company (extension). */
  exportId: string;
}

/** An operation of the table, with its id. */
export type FuzzOperation = Operation & { id: OperationId };

/**
 * The kind of key a row is fuzzed with: its `principal`; a public row, which has none, with an
 * App's for wallet login (it acts on an App's wallet) and a company's otherwise.
 */
export const fuzzPrincipalOf = (operation: Operation): PrincipalType =>
  operation.authorization !== 'none'
    ? operation.principal
    : operation.path.startsWith('/v2/wallets/')
      ? 'app'
      : 'company';

/** One generated request. */
export interface FuzzRequest {
  path: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the body is, for the report of a failing input. */
  bodyKind: string;
}

/** A PNG of one pixel, and a small CSV: bodies the upload operations accept. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const CSV = Buffer.from('a,b\n1,2\n', 'utf8');

/** Printable ASCII: what `fetch` lets through in a header value. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength,
  });

/** Strings meant to break things: unicode of every plane, lone surrogates, controls, RTL marks, NUL. */
const nastyText = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc
      .array(
        fc.constantFrom(
          '\uD800',
          '\uDFFF',
          '\u0000',
          '\u202E',
          '\uFEFF',
          '\u200B',
          'é',
          'e\u0301',
          '😀',
          '\\',
          '"',
          '%',
          '/',
          '\n',
        ),
        { minLength: 1, maxLength: 10 },
      )
      .map((parts) => parts.join('')),
  );

/** Strings of 10 k to 1 M characters. */
const hugeText = fc
  .tuple(fc.constantFrom(10_000, 100_001, 1_000_000), fc.constantFrom('a', 'é', '😀', '\uD800'))
  .map(([length, unit]) => unit.repeat(length));

/** An object nested `depth` levels deep. */
const nested = fc.integer({ min: 2, max: 60 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { level: value };
  return value as Record<string, unknown>;
});

/** Any JSON value, and the values of the wrong type a field may get. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -0, '', [], {}),
  nastyText(),
);

/** Not a UUID, though some look like one. */
const junkId = fc.oneof(
  nastyText(60),
  fc.uuid().map((id) => `${id}x`),
  fc.uuid().map((id) => `{${id}}`),
  fc.uuid().map((id) => id.replace(/-/g, '')),
  fc.constantFrom(
    'null',
    'undefined',
    '0',
    '-1',
    'login',
    'uploads',
    '%00',
    ' ',
    '00000000-0000-0000-0000-00000000000g',
  ),
  fc.integer({ min: 101, max: 300 }).map((length) => 'x'.repeat(length)),
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A path value: URLs cannot carry lone surrogates (they become U+FFFD), and the segments `.`
 * and `..` would be resolved away by the URL, changing the route.
 */
const pathSafe = (value: fc.Arbitrary<string>) =>
  value
    .map((text) => text.replace(LONE_SURROGATE, '\uFFFD'))
    .filter((text) => text.length > 0 && text !== '.' && text !== '..');

/** The ids of real resources a path placeholder may name. */
function knownIds(world: FuzzWorld, name: string): string[] {
  switch (name) {
    case 'companyId':
      return [world.companyId];
    case 'categoryId':
      return [world.categoryId];
    case 'subcategoryId':
      return [world.subcategoryId];
    case 'objectId':
      return [world.objectId, world.externalId];
    case 'fileId':
      return [world.fileId];
    case 'uploadId':
      return [world.uploadId];
    case 'walletId':
      return [world.walletId];
    case 'importId':
      return [world.importId];
    case 'exportId':
      return [world.exportId];
    case 'sequence':
      return ['1', '2'];
    case 'tilePath':
      return ['0/000', 'entries/000', '0/000.p/1'];
    case 'keyId':
      return [world.revocableKeyId];
    default:
      return [];
  }
}

/** Well-formed requests (every part passing its checks) or chaotic ones. */
type Mode = 'wellFormed' | 'chaotic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function pathValue(world: FuzzWorld, name: string, schema: JsonSchema, mode: Mode): fc.Arbitrary<string> {
  const known = knownIds(world, name);
  if (mode === 'wellFormed') {
    // An externalId names an object only where the path takes one (file operations).
    const fitting = schema.format === 'uuid' ? known.filter((id) => UUID.test(id)) : known;
    if (fitting.length) return fc.constantFrom(...fitting);
    // A path value that is no id (an event's sequence number) is a small number, not a UUID.
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    return schema.format === 'uuid' || maxLength === undefined || maxLength >= 36
      ? fc.uuid()
      : fc.integer({ min: 1, max: 99 }).map(String);
  }
  return pathSafe(
    fc.oneof(
      // The caller's own company most of the time, or every request stops at the 403.
      {
        arbitrary: known.length ? fc.constantFrom(...known) : fc.uuid(),
        weight: name === 'companyId' ? 12 : 5,
      },
      {
        arbitrary: known.length ? fc.constantFrom(...known.map((id) => id.toUpperCase())) : fc.uuid(),
        weight: 1,
      },
      { arbitrary: fc.uuid(), weight: 2 },
      { arbitrary: junkId, weight: 2 },
    ),
  );
}

/**
 * Values that pass the domain's rules too, where the schema alone says too little: per field, for
 * the operation at hand (a username is new when creating a wallet, `name@appId` when logging in).
 */
function meaningfulValues(world: FuzzWorld, operation: FuzzOperation): Record<string, fc.Arbitrary<unknown>> {
  const values: Record<string, fc.Arbitrary<unknown>> = {
    image: fc.constantFrom(PNG.toString('base64'), `data:image/png;base64,${PNG.toString('base64')}`),
    password: fc.constant(world.walletPassword),
    fileName: fc.constantFrom('manual.csv', 'photo.png', 'tool.exe'),
    mimeType: fc.constantFrom('text/csv', 'image/png', 'application/x-msdownload'),
    // IP literals only: a fuzzed webhook URL must never make a DNS lookup or leave the machine.
    url: fc.constantFrom('http://127.0.0.1:9/fuzz', 'https://[::1]:9/fuzz', 'https://169.254.169.254/latest'),
    events: fc.constantFrom(['*'], ['object.created', 'file.deleted'], ['object.eaten']),
    // A company's permissions, any of them (an App's are refused).
    permissions: fc.subarray([...COMPANY_PERMISSIONS]),
    roleMappings: fc.constantFrom({}, { 'Registry Admins': 'admin', Auditors: 'auditor' }),
    // Nothing is fetched from a registered issuer: made-up https names, and one refused.
    issuer: fc.oneof(
      { arbitrary: fc.uuid().map((id) => `https://idp-${id}.fuzz.example`), weight: 4 },
      { arbitrary: fc.constant('http://idp.fuzz.example'), weight: 1 },
    ),
    username:
      operation.id === 'walletLogin'
        ? fc.constant(`${world.walletUsername}@${world.appId}`)
        : fc.stringMatching(/^[a-z][a-z0-9._-]{2,29}$/),
  };
  // The subcategory update's `action` is free text the service checks (INVALID_ACTION); other
  // actions are enums, whose values the schema gives.
  if (operation.form) {
    values.action = fc.constantFrom('CHANGE', 'change', 'ACTIVATE', 'DEACTIVATE', 'REMOVE');
  }
  return values;
}

/**
 * Values a field may take that pass its schema: mostly the meaningful ones where there are, and
 * now and then a value that exists already, to reach the conflicts.
 */
function passingValue(
  world: FuzzWorld,
  operation: FuzzOperation,
  name: string,
  schema: JsonSchema,
): fc.Arbitrary<unknown> {
  const meaningful = meaningfulValues(world, operation)[name];
  const existing: Record<string, unknown[]> = {
    name: [world.categoryName],
    externalId: [world.externalId],
    username: [world.walletUsername],
    categoryId: [world.categoryId],
    subcategoryId: [world.subcategoryId],
  };
  const choices = [{ arbitrary: schemaValue(world, name, schema), weight: 3 }];
  if (meaningful) choices.push({ arbitrary: meaningful, weight: 9 });
  if (existing[name]) choices.push({ arbitrary: fc.constantFrom(...(existing[name] ?? [])), weight: 1 });
  return fc.oneof(...choices);
}

/**
 * A field's schema without the `null` that an optional body field takes for "not given": query
 * parameters and form fields are text, where `null` is no value (`"null"` fails the check).
 */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((type) => type !== 'null');
  return {
    ...schema,
    type: types.length === 1 ? types[0] : types,
    ...(Array.isArray(schema.enum) ? { enum: schema.enum.filter((value) => value !== null) } : {}),
  };
}

/** A value of the JSON schema of a field. */
function schemaValue(world: FuzzWorld, name: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  let value: fc.Arbitrary<unknown>;
  // A nullable optional field's type is a list (`['integer', 'null']`): still an integer.
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type;
  if (Array.isArray(schema.enum)) value = fc.constantFrom(...(schema.enum as unknown[]));
  // The consistency query's `from` may not exceed `to`: 0 never does.
  else if (type === 'integer' && name === 'from') value = fc.constant(0);
  else if (type === 'integer') {
    value = fc.integer({
      min: typeof schema.minimum === 'number' ? schema.minimum : -1000,
      max: typeof schema.maximum === 'number' ? Math.min(schema.maximum, 10_000_000) : 1000,
    });
  } else if (type === 'boolean') value = fc.boolean();
  // An instant: `since` before `until` always (an events' time range), any other at any time.
  else if (schema.format === 'date-time') {
    const [from, to] =
      name === 'since' ? ['2000', '2025'] : name === 'until' ? ['2026', '2099'] : ['2000', '2099'];
    value = fc
      .date({
        min: new Date(`${from}-01-01T00:00:00Z`),
        max: new Date(`${to}-12-31T00:00:00Z`),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
  } else if (type === 'object')
    value = fc.dictionary(nastyText(10), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
  else if (schema.format === 'uuid')
    value = fc.oneof(fc.uuid(), fc.constantFrom(...knownIds(world, name), world.objectId));
  else if (typeof schema.pattern === 'string') {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 50;
    value = fc
      .stringMatching(new RegExp(schema.pattern))
      .map((text) => text.slice(0, max))
      .filter((text) => text.length >= min);
  } else {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 60, 60);
    value = fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, max) });
  }
  return value;
}

const propertiesOf = (schema: JsonSchema | undefined): Record<string, JsonSchema> =>
  (schema?.properties as Record<string, JsonSchema> | undefined) ?? {};

/**
 * An object of the schema's fields plus unknown ones. Well-formed: the required fields passing,
 * the others passing or left out. Chaotic: each field left out, passing, of a wrong type, huge or
 * deeply nested.
 */
function fieldsObject(
  world: FuzzWorld,
  operation: FuzzOperation,
  schema: JsonSchema | undefined,
  mode: Mode,
): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(
    Object.entries(propertiesOf(schema)).map(([name, property]) => [
      name,
      mode === 'wellFormed'
        ? passingValue(world, operation, name, property)
        : fc.oneof(
            { arbitrary: passingValue(world, operation, name, property), weight: 6 },
            { arbitrary: anyJson, weight: 2 },
            { arbitrary: hugeText, weight: 1 },
            { arbitrary: nested, weight: 1 },
          ),
    ]),
  );
  const requiredKeys = mode === 'wellFormed' ? ((schema?.required as string[] | undefined) ?? []) : [];
  return fc
    .tuple(
      fc.record(fields, { requiredKeys }),
      fc.dictionary(nastyText(12), anyJson, { maxKeys: mode === 'wellFormed' ? 1 : 3 }),
    )
    .map(([known, unknown]) => {
      const fields = { ...unknown, ...known };
      // A rule between fields, which the schema cannot say: a transfer names the new owner.
      if (mode === 'wellFormed' && fields.action === 'transfer' && fields.owner === undefined) {
        fields.owner = 'New owner';
      }
      return fields;
    });
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** JSON bodies: mostly objects of the schema's fields, else (chaotic) any JSON, broken JSON or nothing. */
function jsonBody(world: FuzzWorld, operation: FuzzOperation, schema: JsonSchema | undefined, mode: Mode) {
  const asJson = (value: Record<string, unknown>) => ({ text: JSON.stringify(value), kind: 'json object' });
  if (mode === 'wellFormed') {
    return fieldsObject(world, operation, schema, mode).map((value) => ({
      body: utf8(JSON.stringify(value)),
      kind: 'json object',
      contentType: 'application/json',
    }));
  }
  return fc
    .oneof(
      { arbitrary: fieldsObject(world, operation, schema, mode).map(asJson), weight: 8 },
      {
        arbitrary: anyJson.map((value) => ({ text: JSON.stringify(value) ?? '', kind: 'any json' })),
        weight: 2,
      },
      {
        arbitrary: nested.map((value) => ({
          text: JSON.stringify({ metadata: value }),
          kind: 'deep metadata',
        })),
        weight: 1,
      },
      { arbitrary: nastyText(80).map((text) => ({ text, kind: 'not json' })), weight: 1 },
      {
        arbitrary: fieldsObject(world, operation, schema, mode).chain((value) => {
          const text = JSON.stringify(value);
          return fc
            .integer({ min: 0, max: Math.max(0, text.length - 1) })
            .map((cut) => ({ text: text.slice(0, cut), kind: 'cut json' }));
        }),
        weight: 1,
      },
      {
        arbitrary: fc
          .constantFrom(
            '',
            ' ',
            'null',
            '[]',
            '\uFEFF{}',
            '{"__proto__":{"x":1}}',
            '{"constructor":{"prototype":{}}}',
          )
          .map((text) => ({ text, kind: 'edge json' })),
        weight: 1,
      },
    )
    .map(({ text, kind }) => ({ body: utf8(text), kind, contentType: 'application/json' }));
}

interface FilePart {
  fileName: string;
  mimeType: string;
  content: Buffer;
}

const filePart: fc.Arbitrary<FilePart> = fc.oneof(
  fc.constant({ fileName: 'photo.png', mimeType: 'image/png', content: PNG }),
  fc.constant({ fileName: 'table.csv', mimeType: 'text/csv', content: CSV }),
  fc.record({
    fileName: fc.oneof(
      fc.constantFrom('a.png', 'b.csv', 'c.exe', 'd.pdf', '', 'noextension', 'x.PNG'),
      nastyText(30),
    ),
    mimeType: fc.oneof(
      fc.constantFrom('image/png', 'text/csv', 'application/octet-stream', ''),
      headerText(40),
    ),
    content: fc.oneof(
      fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
      fc.constantFrom(PNG, CSV, Buffer.alloc(0), Buffer.from('%PDF-1.4\n')),
    ),
  }),
);

/** `Content-Disposition` values quote the name; a name with CR or LF would end the header line early. */
const quoted = (text: string) => text.replace(/["\r\n]/g, '_');

function multipart(fields: Record<string, string>, file: FilePart | undefined, boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      utf8(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      utf8(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.fileName)}"\r\nContent-Type: ${file.mimeType.replace(/[\r\n]/g, '')}\r\n\r\n`,
      ),
      file.content,
      utf8('\r\n'),
    );
  }
  chunks.push(utf8(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const goodFile: fc.Arbitrary<FilePart> = fc.constantFrom(
  { fileName: 'photo.png', mimeType: 'image/png', content: PNG },
  { fileName: 'table.csv', mimeType: 'text/csv', content: CSV },
);

/** multipart/form-data bodies: well-formed, or (chaotic) truncated, with another boundary than announced, or none. */
function multipartBody(world: FuzzWorld, operation: FuzzOperation, fieldsSchema: JsonSchema, mode: Mode) {
  // Form parts are text: their passing values never include `null`.
  const textSchema = {
    ...fieldsSchema,
    properties: Object.fromEntries(
      Object.entries(propertiesOf(fieldsSchema)).map(([name, schema]) => [name, withoutNull(schema)]),
    ),
  };
  const textFields = fieldsObject(world, operation, textSchema, mode).map((fields) =>
    Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
      ]),
    ),
  );
  return fc
    .record({
      fields: textFields,
      file: mode === 'wellFormed' ? goodFile : fc.option(filePart, { freq: 4 }),
      boundary: fc.constantFrom('fuzzBoundary', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a'),
      damage:
        mode === 'wellFormed'
          ? fc.constant('none' as const)
          : fc.oneof(
              { arbitrary: fc.constant('none' as const), weight: 6 },
              {
                arbitrary: fc.constantFrom(
                  'truncated' as const,
                  'wrong boundary' as const,
                  'no boundary' as const,
                ),
                weight: 1,
              },
            ),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ fields, file, boundary, damage, cut }) => {
      let body = multipart(fields, file ?? undefined, boundary);
      let contentType = `multipart/form-data; boundary=${boundary}`;
      if (damage === 'truncated') body = body.subarray(0, Math.floor(body.length * cut));
      if (damage === 'wrong boundary') contentType = 'multipart/form-data; boundary=somethingElse';
      if (damage === 'no boundary') contentType = 'multipart/form-data';
      return { body, contentType, kind: `multipart (${damage}${file ? `, file ${file.fileName}` : ''})` };
    });
}

/**
 * A file as the whole body, under one of the content types the row takes so (an import's CSV or
 * JSON Lines): well-formed, rows for the world's subcategory; chaotic, also any bytes.
 */
function rawFileBody(world: FuzzWorld, rawTypes: readonly string[], mode: Mode) {
  const rows = fc
    .array(fc.tuple(fc.stringMatching(/^[A-Z]{1,3}-[0-9]{1,4}$/), fc.string({ maxLength: 30 })), {
      minLength: 1,
      maxLength: 5,
    })
    .chain((cells) =>
      fc.constantFrom(
        {
          type: 'text/csv',
          text: `externalId,name,subcategoryId\n${cells
            .map(([externalId, name]) => `${externalId},"${name.replace(/"/g, '""')}",${world.subcategoryId}`)
            .join('\n')}\n`,
        },
        {
          type: rawTypes.find((type) => type !== 'text/csv') ?? 'text/csv',
          text: cells
            .map(([externalId, name]) =>
              JSON.stringify({ externalId, name, subcategoryId: world.subcategoryId }),
            )
            .join('\n'),
        },
      ),
    )
    .map(({ type, text }) => ({ body: utf8(text), contentType: type, kind: `file as ${type}` }));
  if (mode === 'wellFormed') return rows;
  return fc.oneof(
    { arbitrary: rows, weight: 2 },
    {
      arbitrary: fc
        .record({
          content: fc.oneof(
            fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
            nastyText(200).map(utf8),
            fc.constantFrom(Buffer.alloc(0), PNG, CSV, utf8('a,a\n1,2\n'), utf8('"open\n')),
          ),
          type: fc.constantFrom(...rawTypes),
        })
        .map(({ content, type }) => ({ body: content, contentType: type, kind: `bytes as ${type}` })),
      weight: 2,
    },
  );
}

function bodyOf(world: FuzzWorld, operation: FuzzOperation, mode: Mode) {
  if (operation.body) return jsonBody(world, operation, operation.body.jsonSchema, mode);
  if (operation.form) {
    const rawTypes = operation.form.rawTypes ?? [];
    return fc.oneof(
      multipartBody(world, operation, operation.form.fields.jsonSchema, mode),
      jsonBody(world, operation, operation.form.fields.jsonSchema, mode),
      ...(rawTypes.length > 0 ? [rawFileBody(world, rawTypes, mode)] : []),
    );
  }
  if (operation.streamedBody) {
    if (mode === 'wellFormed')
      return multipartBody(world, operation, operation.streamedBody.fields.jsonSchema, mode);
    return fc.oneof(
      {
        arbitrary: multipartBody(world, operation, operation.streamedBody.fields.jsonSchema, mode),
        weight: 4,
      },
      { arbitrary: jsonBody(world, operation, operation.streamedBody.fields.jsonSchema, mode), weight: 1 },
    );
  }
  // Operations without a body get one now and then anyway (GET cannot carry one in fetch).
  if (operation.method === 'GET' || mode === 'wellFormed') return fc.constant(undefined);
  return fc.option(jsonBody(world, operation, undefined, mode), { freq: 3 }).map((body) => body ?? undefined);
}

/** The query string: the schema's parameters, passing or (chaotic) not, and unknown ones. */
function queryOf(
  world: FuzzWorld,
  operation: FuzzOperation,
  mode: Mode,
): fc.Arbitrary<Array<[string, string]>> {
  const parameters = Object.entries(propertiesOf(operation.query?.jsonSchema)).map(([name, schema]) => {
    const passing = schemaValue(world, name, withoutNull(schema)).map((value) =>
      typeof value === 'string' ? value : JSON.stringify(value),
    );
    const failing = fc.oneof(
      nastyText(30),
      fc.constantFrom('', '0', '-1', '1.5', '1e3', '99999999999999999999', ' 7', 'TRUE', 'null', '[]'),
    );
    const value =
      mode === 'wellFormed'
        ? passing
        : fc.oneof({ arbitrary: passing, weight: 4 }, { arbitrary: failing, weight: 2 });
    return fc.option(
      value.map((text): [string, string] => [name, text]),
      { freq: 2 },
    );
  });
  const unknown = fc.array(fc.tuple(nastyText(10), nastyText(20)), {
    maxLength: mode === 'wellFormed' ? 0 : 2,
  });
  return fc
    .tuple(fc.tuple(...parameters), unknown)
    .map(([known, extra]) => [...known.filter((pair): pair is [string, string] => pair !== null), ...extra]);
}

/** Credentials: mostly the key the row asks for; (chaotic) sometimes none, junk, the wrong kind, no permission, a wallet. */
function credentialsOf(
  world: FuzzWorld,
  operation: FuzzOperation,
  mode: Mode,
): fc.Arbitrary<Record<string, string>> {
  const principal = fuzzPrincipalOf(operation);
  const rightKey = principal === 'app' ? world.appKey : world.companyKey;
  const otherKey = principal === 'app' ? world.companyKey : world.appKey;
  const personOnly = keyedOperation(operation)?.accessManagement === true;
  const rightCredentials: Record<string, string> =
    operation.authorization === 'none'
      ? {}
      : personOnly
        ? { Authorization: `Bearer ${world.adminToken}` }
        : { 'X-API-Key': rightKey };
  if (mode === 'wellFormed') return fc.constant(rightCredentials);
  return fc.oneof(
    {
      arbitrary: fc.constant(rightCredentials),
      weight: operation.authorization === 'none' ? 2 : 16,
    },
    // A key with every permission, where only a person may call.
    ...(personOnly ? [{ arbitrary: fc.constant({ 'X-API-Key': rightKey }), weight: 2 }] : []),
    { arbitrary: fc.constant({}), weight: 1 },
    { arbitrary: headerText(60).map((key) => ({ 'X-API-Key': `ark_${key}` })), weight: 1 },
    { arbitrary: fc.constant({ 'X-API-Key': otherKey }), weight: 1 },
    { arbitrary: fc.constant({ 'X-API-Key': world.noPermissionKey }), weight: 1 },
    {
      arbitrary: fc.constant({ Authorization: `Bearer ${world.walletToken}` }),
      weight: principal === 'app' ? 3 : 1,
    },
    { arbitrary: headerText(60).map((token) => ({ Authorization: `Bearer ${token}` })), weight: 1 },
  );
}

/** Every part of a request to `operation`, pointed at the resources of `world`. */
export function fuzzRequest(world: FuzzWorld, operation: FuzzOperation): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: requestOf(world, operation, 'wellFormed'), weight: 1 },
    { arbitrary: requestOf(world, operation, 'chaotic'), weight: 2 },
  );
}

/**
 * Well-formed requests that are the same on every run (a fixed seed): the fuzz test sends them
 * first, so that it gets past the credential and schema checks whatever its random seed draws.
 * Six, because meaningful values include refused ones (a metadata-service webhook URL, an
 * unknown event type): the first three createWebhook examples drew only refused URLs.
 */
export function wellFormedRequests(world: FuzzWorld, operation: FuzzOperation, count = 6): FuzzRequest[] {
  return fc.sample(requestOf(world, operation, 'wellFormed'), { numRuns: count, seed: 20_261_121 });
}

function requestOf(world: FuzzWorld, operation: FuzzOperation, mode: Mode): fc.Arbitrary<FuzzRequest> {
  // A greedy `{name+}` is the parameter `name`.
  const placeholders = [...operation.path.matchAll(/\{([^}+]+)\+?\}/g)].map((match) => match[1] as string);
  const pathSchemas = propertiesOf(operation.pathParameters?.jsonSchema);
  const path = fc.record(
    Object.fromEntries(
      placeholders.map((name) => [name, pathValue(world, name, pathSchemas[name] ?? {}, mode)]),
    ),
  );
  const idempotencyKey =
    operation.idempotent === true && mode === 'chaotic'
      ? fc.option(
          headerText(300).map((key) => ({ 'Idempotency-Key': key })),
          { freq: 4 },
        )
      : fc.constant(null);
  // A body under a Content-Type that does not describe it, now and then.
  const wrongContentType = fc.oneof(
    fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded'),
    headerText(30),
  );
  return fc
    .record({
      path,
      query: queryOf(world, operation, mode),
      credentials: credentialsOf(world, operation, mode),
      idempotency: idempotencyKey,
      body: bodyOf(world, operation, mode),
      contentType: mode === 'wellFormed' ? fc.constant(null) : fc.option(wrongContentType, { freq: 8 }),
    })
    .map(({ path: pathValues, query, credentials, idempotency, body, contentType }) => ({
      path: pathValues as Record<string, string>,
      query,
      headers: {
        ...credentials,
        ...(idempotency ?? {}),
        ...(body ? { 'Content-Type': contentType ?? body.contentType } : {}),
      },
      body: body?.body,
      bodyKind: `${mode}: ${body ? `${body.kind}${contentType ? ` as ${contentType}` : ''}` : 'no body'}`,
    }));
}

/** A failing input, short enough to read in a report (bodies cut at 500 characters). */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body?.toString('utf8');
  return JSON.stringify({
    path: request.path,
    query: request.query,
    headers: Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        value.length > 80 ? `${value.slice(0, 80)}…` : value,
      ]),
    ),
    bodyKind: request.bodyKind,
    bodyBytes: request.body?.length ?? 0,
    body: body && body.length > 500 ? `${body.slice(0, 500)}…` : body,
  });
}
