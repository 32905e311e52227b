/**
 * The people of the local identity provider's "Demo company", one or more in each role
 * (docs/people-sign-in.md): they sign in with their email and the data folder's one password.
 */
import type { Role } from '../../lambdas/shared/roles.js';

export const DEMO_COMPANY_NAME = 'Demo company';

export interface DemoPerson {
  /** What the person types on the sign-in page, and the token's `email`. */
  login: string;
  name: string;
  /** The token's `sub`: `demo-<first name>`, so events name them `user:demo-…@<issuer host>`. */
  subject: string;
  role: Role;
}

const person = (name: string, login: string, role: Role): DemoPerson => ({
  login,
  name,
  subject: `demo-${name.split(' ')[0]?.toLowerCase()}`,
  role,
});

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  person('Vera Viewer', 'vera@demo.example', 'viewer'),
  person('Aude Auditor', 'aude@demo.example', 'auditor'),
  // An auditor from outside the company: read-only, for as long as her token lives.
  person('Otto Outside', 'otto@auditors.example', 'auditor'),
  person('Eddie Editor', 'eddie@demo.example', 'editor'),
  person('Ada Admin', 'ada@demo.example', 'admin'),
];

/** The person who signs in with this login (emails are case-insensitive), if any. */
export const demoPersonByLogin = (login: string): DemoPerson | undefined =>
  DEMO_PEOPLE.find((each) => each.login === login.trim().toLowerCase());

export const demoPersonBySubject = (subject: string): DemoPerson | undefined =>
  DEMO_PEOPLE.find((each) => each.subject === subject);

/** The ID token's claims of a person (the provider keeps those its scopes allow). */
export const claimsOf = (each: DemoPerson) => ({
  sub: each.subject,
  name: each.name,
  email: each.login,
  roles: [each.role],
});
