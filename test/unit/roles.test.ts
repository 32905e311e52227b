/** The roles table (`lambdas/shared/roles.ts`): each role grants what the one before it does, and more. */
import fc from 'fast-check';
import { COMPANY_PERMISSIONS } from '../../lambdas/shared/principal';
import { highestRole, isRole, ROLE_NAMES, ROLES, type Role } from '../../lambdas/shared/roles';

/** What a role may do, as a set of words (its permissions, the audit trail, the company's access). */
const grantsOf = (role: Role) =>
  new Set([
    ...ROLES[role].permissions,
    ...(ROLES[role].auditTrail ? ['auditTrail'] : []),
    ...(ROLES[role].managesAccess ? ['managesAccess'] : []),
  ]);

describe('highestRole', () => {
  it.each([
    [[], undefined],
    [['viewer'], 'viewer'],
    [['admin', 'viewer'], 'admin'],
    [['viewer', 'editor', 'auditor'], 'editor'],
    [['auditor', 'auditor'], 'auditor'],
  ] as const)('of %j is %s', (roles, highest) => {
    // Act / Assess
    expect(highestRole(roles)).toBe(highest);
  });

  it('is one of those given, and grants at least what each of them grants, in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ROLE_NAMES), { minLength: 1 }), (roles) => {
        // Act
        const highest = highestRole(roles);
        // Assess
        expect(roles).toContain(highest);
        for (const role of roles) {
          expect([...grantsOf(role)].filter((grant) => !grantsOf(highest as Role).has(grant))).toEqual([]);
        }
      }),
    );
  });
});

describe('ROLES', () => {
  it('orders the roles so that each grants all the one before it grants, and more', () => {
    // Act
    const pairs = ROLE_NAMES.slice(1).map((role, index) => [ROLE_NAMES[index] as Role, role] as const);
    // Assess
    for (const [lower, higher] of pairs) {
      expect([...grantsOf(lower)].filter((grant) => !grantsOf(higher).has(grant))).toEqual([]);
      expect(grantsOf(higher).size).toBeGreaterThan(grantsOf(lower).size);
    }
  });

  it("grants only a company key's permissions, and the admin all of them", () => {
    // Assess
    for (const role of ROLE_NAMES) {
      expect(
        ROLES[role].permissions.filter((permission) => !COMPANY_PERMISSIONS.includes(permission)),
      ).toEqual([]);
    }
    expect([...ROLES.admin.permissions].sort()).toEqual([...COMPANY_PERMISSIONS].sort());
  });

  it("lets the admin alone manage the company's keys and identity providers", () => {
    // Act
    const managers = ROLE_NAMES.filter((role) => ROLES[role].managesAccess);
    // Assess
    expect(managers).toEqual(['admin']);
  });

  it('keeps the viewer out of the audit trail and out of every write', () => {
    // Assess
    expect(ROLES.viewer.auditTrail).toBe(false);
    expect(ROLES.viewer.permissions.filter((permission) => permission.endsWith(':write'))).toEqual([]);
    expect(ROLES.auditor.permissions.filter((permission) => permission.endsWith(':write'))).toEqual([]);
  });
});

describe('isRole', () => {
  it.each([
    ['viewer', true],
    ['admin', true],
    ['Admin', false],
    ['owner', false],
    ['', false],
  ])('%j: %s', (value, expected) => {
    // Act / Assess
    expect(isRole(value)).toBe(expected);
  });
});
