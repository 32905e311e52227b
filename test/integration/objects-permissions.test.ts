/** Who may call the object operations: the key's permissions and kind (spec 5, 7). */
import { randomBytes } from 'node:crypto';
import type { Permission, Principal } from '../../lambdas/shared/principal';
import { givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  getCompanyObject,
  getObject,
  ISO_UTC,
  listObjectEvents,
  listObjects,
  listSubcategoryObjects,
  postObject,
  putObject,
} from '../support/object-requests';
import { appPrincipal, companyPrincipal } from '../support/principals';

const allBut = (missing: Permission): Permission[] =>
  (
    [
      'objects:read',
      'objects:write',
      'categories:read',
      'categories:write',
      'files:read',
      'files:write',
    ] as const
  ).filter((permission) => permission !== missing);

/** A company with one object, and a second key of the same company with restricted permissions. */
async function givenCompanyObject(restrictedPermissions: Permission[]) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const object = await createObjectOk(principal, place, { name: 'Generator' });
  const restricted: Principal = {
    ...principal,
    keyId: randomBytes(12).toString('hex'),
    permissions: new Set(restrictedPermissions),
  };
  return { principal, place, object, restricted };
}

describe('object permissions', () => {
  it('a key without objects:write gets 403 COMPANY_ACCESS_DENIED on create, and nothing is created', async () => {
    // Prepare
    const { principal, place, restricted } = await givenCompanyObject(allBut('objects:write'));
    // Act
    const response = await postObject(restricted, place, { externalId: 'EXT-denied', name: 'Denied' });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual({
      error: 'The API key lacks the permission objects:write',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect((await listObjects(principal, { status: 'all' })).body.pagination.total).toBe(1);
  });

  it('a key without objects:write gets 403 COMPANY_ACCESS_DENIED on update, and no event is recorded', async () => {
    // Prepare
    const { principal, object, restricted } = await givenCompanyObject(allBut('objects:write'));
    // Act
    const response = await putObject(restricted, object.id, { action: 'report_stolen' });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body.code).toBe('COMPANY_ACCESS_DENIED');
    expect((await getObject(principal, object.id)).body).toEqual(object);
  });

  it('a key with objects:write but not objects:read may create but not list or read', async () => {
    // Prepare
    const { place, object, restricted } = await givenCompanyObject(allBut('objects:read'));
    // Act
    const created = await postObject(restricted, place, { externalId: 'EXT-write-only', name: 'Written' });
    const responses = [
      await listObjects(restricted),
      await listSubcategoryObjects(restricted, place),
      await getObject(restricted, object.id),
      await getCompanyObject(restricted, restricted.tenantId, object.id),
      await listObjectEvents(restricted, object.id),
    ];
    // Assess
    expect(created.statusCode).toBe(201);
    for (const response of responses) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toEqual({
        error: 'The API key lacks the permission objects:read',
        code: 'COMPANY_ACCESS_DENIED',
        timestamp: expect.stringMatching(ISO_UTC),
      });
    }
  });

  it('a key with objects:read only may list and read but not write', async () => {
    // Prepare
    const { place, object, restricted } = await givenCompanyObject(['objects:read']);
    // Act
    const listed = await listObjects(restricted);
    const read = await getObject(restricted, object.id);
    const created = await postObject(restricted, place, { externalId: 'EXT-read-only', name: 'Refused' });
    const updated = await putObject(restricted, object.id, { action: 'update', name: 'Refused' });
    // Assess
    expect(listed.statusCode).toBe(200);
    expect(listed.body.data).toEqual([object]);
    expect(read.body).toEqual(object);
    expect(created.statusCode).toBe(403);
    expect(updated.statusCode).toBe(403);
  });

  it('an App key gets 403 COMPANY_ACCESS_DENIED on every object operation', async () => {
    // Prepare
    const { place, object } = await givenCompanyObject([]);
    const app = appPrincipal();
    // Act
    const responses = [
      await postObject(app, place, { externalId: 'EXT-app', name: 'By an App' }),
      await putObject(app, object.id, { action: 'update' }),
      await listObjects(app),
      await listSubcategoryObjects(app, place),
      await getObject(app, object.id),
      await getCompanyObject(app, app.tenantId, object.id),
      await listObjectEvents(app, object.id),
    ];
    // Assess
    for (const response of responses) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toEqual({
        error: 'This operation needs a key of a company',
        code: 'COMPANY_ACCESS_DENIED',
        timestamp: expect.stringMatching(ISO_UTC),
      });
    }
  });

  it('an App key is refused even when it holds the object permissions', async () => {
    // Prepare
    const { object } = await givenCompanyObject([]);
    const app = appPrincipal(['objects:read', 'objects:write']);
    // Act
    const response = await getObject(app, object.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body.code).toBe('COMPANY_ACCESS_DENIED');
  });

  it('a request without a principal gets 401 UNAUTHORIZED', async () => {
    // Prepare
    const { place } = await givenCompanyObject([]);
    // Act
    const created = await postObject(undefined, place, { externalId: 'EXT-anon', name: 'Anonymous' });
    const listed = await listObjects(undefined);
    // Assess
    expect(created.statusCode).toBe(401);
    expect(created.body.code).toBe('UNAUTHORIZED');
    expect(listed.statusCode).toBe(401);
    expect(listed.body.code).toBe('UNAUTHORIZED');
  });
});
