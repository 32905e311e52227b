/** The roles tables of docs/people-sign-in.md and the README say what `ROLES` grants, no more and no less. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLE_NAMES, ROLES } from '../../lambdas/shared/roles';

const DOC = readFileSync(join(__dirname, '../../docs/people-sign-in.md'), 'utf8');

/** The rows of the table under `## Roles`: role → [permissions, audit trail, keys and providers]. */
function documentedRoles(): Map<string, [string, string, string]> {
  const section = DOC.slice(DOC.indexOf('## Roles'), DOC.indexOf('## Registering a provider'));
  const rows = new Map<string, [string, string, string]>();
  for (const match of section.matchAll(/^\| `(\w+)` \| ([^|]+) \| (yes|no) \| (yes|no) \|$/gm)) {
    rows.set(match[1]!, [match[2]!.trim(), match[3]!, match[4]!]);
  }
  return rows;
}

const yesOrNo = (granted: boolean) => (granted ? 'yes' : 'no');

describe('the roles table of docs/people-sign-in.md', () => {
  it.each(ROLE_NAMES)('states what %s grants', (role) => {
    // Act
    const row = documentedRoles().get(role);
    // Assess
    expect(row).toEqual([
      ROLES[role].permissions.join(', '),
      yesOrNo(ROLES[role].auditTrail),
      yesOrNo(ROLES[role].managesAccess),
    ]);
  });

  it('lists no other role', () => {
    // Act
    const roles = [...documentedRoles().keys()];
    // Assess
    expect(roles).toEqual([...ROLE_NAMES]);
  });
});

describe("the README's roles table", () => {
  it.each(ROLE_NAMES)('says what %s may, as ROLES describes it', (role) => {
    // Prepare
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    // Act
    const row = new RegExp(`^\\| \`${role}\` \\| (.+) \\|$`, 'm').exec(readme)?.[1];
    // Assess
    expect(row).toBe(ROLES[role].description);
  });
});
