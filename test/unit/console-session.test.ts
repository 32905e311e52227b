/**
 * Who is signed in to the console: the one header that carries a key or a person's token, what a
 * role may see of the audit trail, how the person's own events read, and that a person's token
 * is never stored (no browser).
 */

import type { components } from '../../client/openapi-types';
import {
  canReadAuditTrail,
  credentialHeaders,
  principalName,
  restoreSession,
  type Session,
  storeSession,
} from '../../console/src/session';
import { ROLE_NAMES, ROLES } from '../../lambdas/shared/roles';
import { installSessionStorage } from '../support/session-storage';

type Caller = components['schemas']['Caller'];
type Role = (typeof ROLE_NAMES)[number];

const COMPANY_ID = '4f1c2d3e-0000-4000-8000-000000000001';
const EDDIE = 'user:demo-eddie@127.0.0.1:4010';

const keyCaller: Caller = {
  kind: 'company',
  id: COMPANY_ID,
  appId: null,
  keyId: '0123456789abcdef01234567',
  label: 'Registry clerk',
  permissions: ['objects:read'],
  keyLabels: [{ keyId: '0123456789abcdef01234567', label: 'Registry clerk' }],
  person: null,
};
const keySession: Session = {
  credential: { kind: 'apiKey', apiKey: 'ar_live_example' },
  kind: 'company',
  me: keyCaller,
};

const personSession = (role: Role): Session => ({
  credential: { kind: 'idToken', idToken: 'header.payload.signature', expiresAt: Date.now() + 60_000 },
  kind: 'company',
  me: {
    ...keyCaller,
    kind: 'person',
    keyId: null,
    label: null,
    permissions: [...ROLES[role].permissions],
    person: { principal: EDDIE, role, name: 'Eddie Editor' },
  },
});

describe('credentialHeaders', () => {
  it('sends a key as X-API-Key and a person as a Bearer ID token, never both', () => {
    // Act
    const headers = [keySession, personSession('editor')].map((session) =>
      credentialHeaders(session.credential),
    );
    // Assess
    expect(headers).toEqual([
      { 'X-API-Key': 'ar_live_example' },
      { Authorization: 'Bearer header.payload.signature' },
    ]);
  });
});

describe('canReadAuditTrail', () => {
  it("follows each role's auditTrail mark in lambdas/shared/roles.ts, and lets a key read it", () => {
    // Act
    const byRole = Object.fromEntries(
      ROLE_NAMES.map((role) => [role, canReadAuditTrail(personSession(role))]),
    );
    // Assess
    expect(byRole).toEqual({ viewer: false, auditor: true, editor: true, admin: true });
    expect(canReadAuditTrail(keySession)).toBe(true);
  });
});

describe('principalName', () => {
  it("names the signed-in person's own principal, a labelled key, and leaves another person as is", () => {
    // Prepare
    const session = personSession('editor');
    // Act
    const names = [EDDIE, 'user:demo-vera@127.0.0.1:4010', 'apiKey:0123456789abcdef01234567'].map(
      (principal) => principalName(session, principal),
    );
    // Assess
    expect(names).toEqual([
      `Eddie Editor (${EDDIE})`,
      'user:demo-vera@127.0.0.1:4010',
      'Registry clerk (apiKey:0123456789abcdef01234567)',
    ]);
  });
});

describe('storeSession', () => {
  beforeEach(() => {
    installSessionStorage();
  });

  it("keeps a key's session for the tab when asked, and restores it", () => {
    // Act
    storeSession(keySession, true);
    // Assess
    expect(restoreSession()).toEqual(keySession);
  });

  it("never stores a person's token, even when asked to stay signed in", () => {
    // Prepare: a key's session stored before
    storeSession(keySession, true);
    // Act
    storeSession(personSession('editor'), true);
    // Assess
    expect(sessionStorage.length).toBe(0);
    expect(restoreSession()).toBeUndefined();
  });
});
