/** The admin CLI's command line: what each command takes, and which lines are usage errors (exit 2). */
import fc from 'fast-check';
import { ADMIN_USAGE, parseAdminArguments, UsageError } from '../../cli/admin-arguments';

const APP_ID = '11111111-1111-4111-8111-111111111111';

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
    [['revoke-key', '--key-id', 'f'.repeat(24)], { command: 'revoke-key', keyId: 'f'.repeat(24) }],
    [['set-plan', '--key-id', 'abc', '--plan', 'high'], { command: 'set-plan', keyId: 'abc', plan: 'high' }],
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
  ])('refuses %s', (_label, argv, message) => {
    // Act
    const refusal = usageErrorOf(argv);
    // Assess
    expect(refusal).toBe(message);
  });

  it('gives a one-line usage error or a command for any line (property)', () => {
    const words = fc.oneof(
      fc.constantFrom('create-company', 'create-app', 'create-key', 'revoke-key', 'set-plan', '--', '-'),
      fc.constantFrom('--name', '--company', '--app', '--permissions', '--key-id', '--plan', '--x', '-n'),
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
