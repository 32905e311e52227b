import { handler as listObjectEvents } from '../../lambdas/handlers/objects/list-object-events';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { handler as verifyObject } from '../../lambdas/handlers/objects/verify-object';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';

const update = (principal: ReturnType<typeof companyPrincipal>, objectId: string, body: unknown) =>
  invoke(updateObject, {
    method: 'PUT',
    path: `/v2/objects/${objectId}`,
    principal,
    pathParameters: { objectId },
    body,
  });

describe('object updates and the ledger', () => {
  it('appends one event per update and keeps the chain verifiable', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const created = await givenObject(principal, place, { owner: 'Alice' });
    // Act
    const transferred = await update(principal, created.id, {
      action: 'transfer',
      owner: 'Bob',
      performedBy: 'clerk',
    });
    const stolen = await update(principal, created.id, { action: 'report_stolen', eventDescription: 'gone' });
    const events = await invoke(listObjectEvents, {
      method: 'GET',
      path: `/v2/objects/${created.id}/events`,
      principal,
      pathParameters: { objectId: created.id },
    });
    const verification = await invoke(verifyObject, {
      method: 'GET',
      path: `/v2/objects/${created.id}/verify`,
      principal,
      pathParameters: { objectId: created.id },
    });
    // Assess
    expect(created.blockchain).toEqual({
      txId: created.blockchain.lastTxId,
      lastTxId: created.blockchain.txId,
      eventCount: 1,
    });
    expect(transferred.statusCode).toBe(200);
    expect(transferred.body.owner).toBe('Bob');
    expect(transferred.body.blockchain.eventCount).toBe(2);
    expect(transferred.body.blockchain.txId).toBe(created.blockchain.txId);
    expect(transferred.body.blockchain.lastTxId).not.toBe(created.blockchain.lastTxId);
    expect(stolen.body.status).toBe('stolen');
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual([
      'create',
      'transfer',
      'report_stolen',
    ]);
    expect(events.body.data[1].changes).toEqual({ owner: { from: 'Alice', to: 'Bob' } });
    expect(events.body.data[1].performedBy).toBe('clerk');
    expect(events.body.data[1].principal).toBe(`apiKey:${principal.keyId}`);
    expect(events.body.pagination.total).toBe(3);
    expect(verification.body).toMatchObject({ valid: true, eventCount: 3, problems: [] });
  });

  it('loses no event under 20 concurrent updates', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const created = await givenObject(principal, place);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        update(principal, created.id, { action: 'update', metadata: { [`k${index}`]: index } }),
      ),
    );
    // Assess
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    const successes = statuses.filter((status) => status === 200).length;
    const verification = await invoke(verifyObject, {
      method: 'GET',
      path: `/v2/objects/${created.id}/verify`,
      principal,
      pathParameters: { objectId: created.id },
    });
    expect(verification.body.valid).toBe(true);
    expect(verification.body.eventCount).toBe(1 + successes);
  });
});
