/**
 * Someone with direct write access to the table changes history: the API's verify and the
 * ledger audit must name exactly the object and the event.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { verifyLedger } from '../../lambdas/domain/ledger/ledger-audit';
import { hashEventBody } from '../../lambdas/domain/ledger/ledger-event';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { handler as verifyObject } from '../../lambdas/handlers/objects/verify-object';
import { fromEventItem } from '../../lambdas/repositories/ledger-repository';
import { dynamoDb } from '../../lambdas/shared/clients';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { companyPrincipal } from '../support/principals';

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

/** Integrates every committed event into the log (what the sequencer does every few seconds). */
const integrate = () => runSequencerCycle({ signer: ledger.signer, leaseMs: 100 });

const eventKey = (companyId: string, objectId: string, sequence: number) => ({
  pk: `T#${companyId}#LEDGER#object#${objectId}`,
  sk: `EVENT#${String(sequence).padStart(10, '0')}`,
});

async function givenObjectWithThreeEvents() {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const object = await givenObject(principal, place, { owner: 'Alice' });
  for (const owner of ['Bob', 'Carol']) {
    await invoke(updateObject, {
      method: 'PUT',
      path: `/v2/objects/${object.id}`,
      principal,
      pathParameters: { objectId: object.id },
      body: { action: 'transfer', owner },
    });
  }
  return { principal, object };
}

const verifyThroughApi = (principal: ReturnType<typeof companyPrincipal>, objectId: string) =>
  invoke(verifyObject, {
    method: 'GET',
    path: `/v2/objects/${objectId}/verify`,
    principal,
    pathParameters: { objectId },
  });

describe('tampering with the ledger', () => {
  it('reports an event whose content was changed in DynamoDB', async () => {
    // Prepare
    const { principal, object } = await givenObjectWithThreeEvents();
    await integrate();
    // Act: rewrite who received the object in event 2, leaving its hash as it was
    await dynamoDb.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: eventKey(principal.tenantId, object.id, 2),
        UpdateExpression: 'SET changesJson = :forged',
        ExpressionAttributeValues: { ':forged': JSON.stringify({ owner: { from: 'Alice', to: 'Mallory' } }) },
      }),
    );
    const api = await verifyThroughApi(principal, object.id);
    const audit = await verifyLedger({ objectId: object.id });
    // Assess
    expect(api.statusCode).toBe(200);
    expect(api.body.valid).toBe(false);
    expect(api.body.problems).toEqual([
      { sequence: 2, reason: expect.stringContaining('hash does not match') },
    ]);
    expect(audit.valid).toBe(false);
    expect(audit.invalidChains.map((chain) => chain.chainId)).toEqual([
      `object:${principal.tenantId}:${object.id}`,
    ]);
    expect(audit.invalidChains[0]?.problems.map((problem) => problem.sequence)).toEqual([2]);
  });

  it('catches a consistent rewrite of the chain through the log', async () => {
    // Prepare
    const { principal, object } = await givenObjectWithThreeEvents();
    await integrate();
    // Act: forge event 3 and re-hash it, and point the object and the chain head at the forgery
    const key = eventKey(principal.tenantId, object.id, 3);
    const { Item } = await dynamoDb.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: key }));
    const { hash: _oldHash, ...body } = fromEventItem(Item as Record<string, unknown>);
    const forgedBody = { ...body, changes: { owner: { from: 'Bob', to: 'Mallory' } } };
    const forgedHash = hashEventBody(forgedBody);
    await dynamoDb.send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: { ...Item, changesJson: JSON.stringify(forgedBody.changes), hash: forgedHash },
      }),
    );
    await dynamoDb.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: { pk: `T#${principal.tenantId}#OBJECT#${object.id}`, sk: 'OBJECT' },
        UpdateExpression: 'SET lastTxId = :forged',
        ExpressionAttributeValues: { ':forged': forgedHash },
      }),
    );
    const audit = await verifyLedger({ objectId: object.id });
    // Assess: the chain alone looks whole except for the head, and the log names event 3
    expect(audit.valid).toBe(false);
    expect(audit.logProblems).toContainEqual(
      expect.objectContaining({ chainId: `object:${principal.tenantId}:${object.id}`, sequence: 3 }),
    );
  });

  it('verifies an untouched object', async () => {
    const { principal, object } = await givenObjectWithThreeEvents();
    await integrate();
    const api = await verifyThroughApi(principal, object.id);
    const audit = await verifyLedger({ objectId: object.id });
    expect(api.body).toMatchObject({ valid: true, eventCount: 3, problems: [] });
    expect(audit).toMatchObject({ valid: true, chainsChecked: 1, eventsChecked: 3 });
    expect(audit.log.integratedEvents).toBe(3);
    expect(audit.logProblems).toEqual([]);
  });
});
