/** The admin CLI's command line: what each command takes, and which lines are usage errors (exit 2). */
import fc from 'fast-check';
import { ADMIN_USAGE, parseAdminArguments, UsageError } from '../../cli/admin-arguments';

const APP_ID = '11111111-1111-4111-8111-111111111111';
const CATEGORY_ID = '22222222-2222-4222-8222-222222222222';
const SUBCATEGORY_ID = '33333333-3333-4333-8333-333333333333';
const ISSUER = 'https://idp.example.com/realms/acme';

/** The usage error's message for a line, or a failure if the line parses. */
function usageErrorOf(argv: string[]): string {
  try {
    parseAdminArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${JSON.stringify(argv)} parsed without a usage error`);
}

describe('parseAdminArguments', () => {
  it.each([
    [['create-company', '--name', 'Acme'], { command: 'create-company', name: 'Acme' }],
    [['create-app', '--name=Scanner'], { command: 'create-app', name: 'Scanner' }],
    [['create-app', '--name=-dash'], { command: 'create-app', name: '-dash' }],
    [
      ['create-key', '--app', APP_ID, '--permissions', 'wallets:read, wallets:read,wallets:write'],
      {
        command: 'create-key',
        tenantType: 'app',
        tenantId: APP_ID,
        permissions: ['wallets:read', 'wallets:write'],
      },
    ],
    [
      ['create-key', '--permissions', '', '--company', APP_ID],
      { command: 'create-key', tenantType: 'company', tenantId: APP_ID, permissions: [] },
    ],
    [
      ['create-key', '--company', APP_ID, '--permissions', 'objects:read', '--label', ' Auditor '],
      {
        command: 'create-key',
        tenantType: 'company',
        tenantId: APP_ID,
        permissions: ['objects:read'],
        label: 'Auditor',
      },
    ],
    [['revoke-key', '--key-id', 'f'.repeat(24)], { command: 'revoke-key', keyId: 'f'.repeat(24) }],
    [['set-plan', '--key-id', 'abc', '--plan', 'high'], { command: 'set-plan', keyId: 'abc', plan: 'high' }],
    [
      ['set-wallet-plan', '--app', APP_ID, '--plan', 'high'],
      { command: 'set-wallet-plan', appId: APP_ID, plan: 'high' },
    ],
    [
      ['import', 'objects.csv', '--company', APP_ID],
      { command: 'import', file: 'objects.csv', companyId: APP_ID, mode: 'create', createMissing: false },
    ],
    [
      [
        'import',
        '--company',
        APP_ID,
        '--mode',
        'upsert',
        '--format=jsonl',
        '--create-missing',
        '--subcategory-id',
        SUBCATEGORY_ID.toUpperCase(),
        '--category-id',
        CATEGORY_ID,
        '--',
        '-rows.txt',
      ],
      {
        command: 'import',
        file: '-rows.txt',
        companyId: APP_ID,
        mode: 'upsert',
        format: 'jsonl',
        subcategoryId: SUBCATEGORY_ID,
        categoryId: CATEGORY_ID,
        createMissing: true,
      },
    ],
    [
      ['export', '--company', APP_ID],
      {
        command: 'export',
        companyId: APP_ID,
        format: 'csv',
        filters: { status: 'active', sort: 'createdAt:desc' },
      },
    ],
    [
      [
        'export',
        '--company',
        APP_ID,
        '--format',
        'jsonl',
        '--out',
        'objects.jsonl',
        '--status',
        'all',
        '--name',
        'pump',
        '--owner',
        'Ann',
        '--category-id',
        CATEGORY_ID,
        '--subcategory-id',
        SUBCATEGORY_ID,
        '--external-id',
        'VIN-1',
        '--sort',
        'name:desc',
      ],
      {
        command: 'export',
        companyId: APP_ID,
        format: 'jsonl',
        out: 'objects.jsonl',
        filters: {
          status: 'all',
          name: 'pump',
          owner: 'Ann',
          categoryId: CATEGORY_ID,
          subcategoryId: SUBCATEGORY_ID,
          externalId: 'VIN-1',
          sort: 'name:desc',
        },
      },
    ],
    [
      ['add-identity-provider', '--company', APP_ID, '--issuer', ISSUER, '--audience', 'console'],
      {
        command: 'add-identity-provider',
        companyId: APP_ID,
        issuer: ISSUER,
        audience: 'console',
        roleMappings: {},
      },
    ],
    [
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--audience',
        'console',
        '--roles-claim',
        'groups',
        '--role',
        'asset-viewers=viewer',
        '--role=cn=auditors,ou=groups=auditor',
        '--role',
        'asset-admins=admin',
      ],
      {
        command: 'add-identity-provider',
        companyId: APP_ID,
        issuer: ISSUER,
        audience: 'console',
        rolesClaim: 'groups',
        roleMappings: {
          'asset-viewers': 'viewer',
          'cn=auditors,ou=groups': 'auditor',
          'asset-admins': 'admin',
        },
      },
    ],
    [['list-identity-providers'], { command: 'list-identity-providers' }],
    [
      ['list-identity-providers', '--company', APP_ID],
      { command: 'list-identity-providers', companyId: APP_ID },
    ],
    [
      ['remove-identity-provider', '--company', APP_ID, '--issuer', ISSUER],
      { command: 'remove-identity-provider', companyId: APP_ID, issuer: ISSUER },
    ],
  ])('reads %j', (argv, expected) => {
    // Act
    const parsed = parseAdminArguments(argv);
    // Assess
    expect(parsed).toEqual(expected);
  });

  it.each([
    [['--help']],
    [['-h']],
    [['create-app', '--help']],
    [['create-key', '-h', '--app', APP_ID]],
    [['create-company', '--name', 'X', '--extra', '1', '--help']],
    [['make-coffee', '--help']],
  ])('asks for help for %j, whatever else is wrong on the line', (argv) => {
    // Act / Assess
    expect(parseAdminArguments(argv)).toEqual({ command: 'help' });
  });

  it.each([
    ['no command', [], 'No command given'],
    ['options before the command', ['--name', 'X', 'create-company'], 'No command given'],
    ['an unknown command', ['make-coffee'], 'Unknown command "make-coffee"'],
    ['--name without its value', ['create-app', '--name'], '--name needs a value'],
    ['an empty --name', ['create-company', '--name', ' '], '--name is required'],
    ['no --name', ['create-company'], '--name is required'],
    ['an unknown option', ['create-company', '--name', 'X', '--extra', '1'], 'Unknown option "--extra"'],
    [
      'another command’s option',
      ['create-company', '--name', 'X', '--plan', 'high'],
      'Unknown option "--plan"',
    ],
    ['a positional argument', ['create-app', '--name', 'X', 'Y'], 'Unexpected argument "Y"'],
    ['an argument after --', ['create-app', '--name', 'X', '--', '--help'], 'Unexpected argument "--help"'],
    ['an option given twice', ['create-app', '--name', 'X', '--name', 'Y'], '--name is given more than once'],
    [
      'an option where a value belongs',
      ['create-app', '--name', '--help'],
      '--name needs a value (for one that starts with "-", write --name=<value>)',
    ],
    [
      'a name over 200 characters',
      ['create-app', '--name', 'x'.repeat(201)],
      '--name must be at most 200 characters',
    ],
    ['--key-id without its value', ['revoke-key', '--key-id'], '--key-id needs a value'],
    ['no --key-id', ['revoke-key'], '--key-id is required'],
    ['create-key without --permissions', ['create-key', '--app', APP_ID], '--permissions is required'],
    [
      'create-key with a label over 100 characters',
      ['create-key', '--app', APP_ID, '--permissions', '', '--label', 'x'.repeat(101)],
      '--label must be at most 100 characters',
    ],
    [
      'create-key with an unknown permission',
      ['create-key', '--app', APP_ID, '--permissions', 'root:all'],
      'Unknown permission(s): "root:all"',
    ],
    [
      'create-key with a permission holding a newline (the message stays one line)',
      ['create-key', '--app', APP_ID, '--permissions', 'objects:read,a\nb'],
      'Unknown permission(s): "a\\nb"',
    ],
    [
      'create-key with neither tenant',
      ['create-key', '--permissions', ''],
      'Give exactly one of --company and --app',
    ],
    [
      'create-key with both tenants',
      ['create-key', '--company', 'a', '--app', 'b', '--permissions', ''],
      'Give exactly one of --company and --app',
    ],
    [
      'create-key with an empty --company',
      ['create-key', '--company', '', '--permissions', ''],
      '--company is required',
    ],
    [
      'set-plan with an unknown plan',
      ['set-plan', '--key-id', 'a', '--plan', 'gold'],
      '--plan must be one of: default, high',
    ],
    [
      'set-wallet-plan with an unknown plan',
      ['set-wallet-plan', '--app', APP_ID, '--plan', 'gold'],
      '--plan must be one of: default, high',
    ],
    ['set-wallet-plan without --app', ['set-wallet-plan', '--plan', 'high'], '--app is required'],
    [
      'import without a file',
      ['import', '--company', APP_ID],
      'import needs a file: import <file> --company <companyId>',
    ],
    [
      'import with two files',
      ['import', 'a.csv', 'b.csv', '--company', APP_ID],
      'Unexpected argument "b.csv"',
    ],
    ['import without --company', ['import', 'a.csv'], '--company is required'],
    [
      'import with an unknown mode',
      ['import', 'a.csv', '--company', APP_ID, '--mode', 'replace'],
      '--mode must be one of: create, upsert',
    ],
    [
      'import with an unknown format',
      ['import', 'a.csv', '--company', APP_ID, '--format', 'xlsx'],
      '--format must be one of: csv, jsonl',
    ],
    [
      'import with a --subcategory-id that is no UUID',
      ['import', 'a.csv', '--company', APP_ID, '--subcategory-id', 'shelves'],
      '--subcategory-id must be a UUID',
    ],
    [
      'import with --category-id alone',
      ['import', 'a.csv', '--company', APP_ID, '--category-id', CATEGORY_ID],
      '--category-id goes with --subcategory-id (the target of rows that name none)',
    ],
    [
      'import with a value for --create-missing',
      ['import', 'a.csv', '--company', APP_ID, '--create-missing=yes'],
      '--create-missing takes no value',
    ],
    [
      'import with --create-missing twice',
      ['import', 'a.csv', '--company', APP_ID, '--create-missing', '--create-missing'],
      '--create-missing is given more than once',
    ],
    ['export without --company', ['export', '--format', 'csv'], '--company is required'],
    [
      'export with a positional argument',
      ['export', 'out.csv', '--company', APP_ID],
      'Unexpected argument "out.csv"',
    ],
    [
      'export with an import option',
      ['export', '--company', APP_ID, '--mode', 'upsert'],
      'Unknown option "--mode"',
    ],
    [
      'export with an unknown format',
      ['export', '--company', APP_ID, '--format', 'xml'],
      '--format must be one of: csv, jsonl',
    ],
    ['export with an empty --out', ['export', '--company', APP_ID, '--out', ''], '--out needs a file name'],
    [
      'export with an unknown status',
      ['export', '--company', APP_ID, '--status', 'stolen'],
      expect.stringMatching(/^--status must be one of: active, inactive, all/),
    ],
    [
      'export with an unknown sort',
      ['export', '--company', APP_ID, '--sort', 'owner:asc'],
      expect.stringMatching(/^--sort must be one of: createdAt:desc, createdAt:asc, name:asc, name:desc/),
    ],
    [
      'export with a --category-id that is no UUID',
      ['export', '--company', APP_ID, '--category-id', 'IT'],
      '--category-id must be a UUID',
    ],
    [
      'export with an over-long --name',
      ['export', '--company', APP_ID, '--name', 'x'.repeat(201)],
      '--name must be at most 200 characters long',
    ],
    [
      'export with an empty --external-id',
      ['export', '--company', APP_ID, '--external-id', ''],
      '--external-id must be 1 to 100 characters long',
    ],
    [
      'add-identity-provider with a --role naming no role',
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--audience',
        'a',
        '--role',
        'staff=owner',
      ],
      '--role must read <claim value>=<viewer|auditor|editor|admin>, not "staff=owner"',
    ],
    [
      'add-identity-provider with a --role without its claim value',
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--audience',
        'a',
        '--role',
        '=admin',
      ],
      '--role must read <claim value>=<viewer|auditor|editor|admin>, not "=admin"',
    ],
    [
      'add-identity-provider with a --role without "="',
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--audience',
        'a',
        '--role',
        'admin',
      ],
      '--role must read <claim value>=<viewer|auditor|editor|admin>, not "admin"',
    ],
    [
      'add-identity-provider mapping one claim value twice',
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--audience',
        'a',
        '--role',
        'staff=viewer',
        '--role',
        'staff=admin',
      ],
      '--role maps "staff" twice',
    ],
    [
      'add-identity-provider with an empty --roles-claim',
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--audience',
        'a',
        '--roles-claim',
        ' ',
      ],
      '--roles-claim needs a claim name',
    ],
    [
      'add-identity-provider without --audience',
      ['add-identity-provider', '--company', APP_ID, '--issuer', ISSUER],
      '--audience is required',
    ],
    [
      'add-identity-provider with --issuer twice',
      [
        'add-identity-provider',
        '--company',
        APP_ID,
        '--issuer',
        ISSUER,
        '--issuer',
        ISSUER,
        '--audience',
        'a',
      ],
      '--issuer is given more than once',
    ],
    [
      'remove-identity-provider without --issuer',
      ['remove-identity-provider', '--company', APP_ID],
      '--issuer is required',
    ],
    [
      'list-identity-providers with an empty --company',
      ['list-identity-providers', '--company', ''],
      '--company is required',
    ],
  ])('refuses %s', (_label, argv, message) => {
    // Act
    const refusal = usageErrorOf(argv);
    // Assess
    expect(refusal).toEqual(message);
  });

  it('gives a one-line usage error or a command for any line (property)', () => {
    const words = fc.oneof(
      fc.constantFrom(
        'create-company',
        'create-app',
        'create-key',
        'revoke-key',
        'set-plan',
        'set-wallet-plan',
        'import',
        'export',
        '--',
        '-',
      ),
      fc.constantFrom(
        '--name',
        '--company',
        '--app',
        '--permissions',
        '--key-id',
        '--plan',
        '--x',
        '-n',
        '--create-missing',
        '--create-missing=1',
        '--format',
        '--sort',
        '--status',
        '--category-id',
      ),
      fc.string(),
      // Control characters too (a newline in a value must not break the message's one line).
      fc.string({ unit: 'binary' }),
      fc.constantFrom('a\nb', 'objects:read,x\ry', '\n'),
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 8 }), (argv) => {
        try {
          parseAdminArguments(argv);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          expect((error as Error).message).not.toMatch(/[\r\n]/);
        }
      }),
    );
  });
});

describe('ADMIN_USAGE', () => {
  it('documents --help and the exit codes', () => {
    // Assess
    expect(ADMIN_USAGE).toContain(
      '--help (or -h), with or without a command, prints this text on stdout and exits 0',
    );
    expect(ADMIN_USAGE).toContain('exit 2 for a usage error, 1 for any other error');
  });
});
