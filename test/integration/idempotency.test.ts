import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler as createCategory } from '../../lambdas/handlers/categories/create-category';
import { handler as listCategories } from '../../lambdas/handlers/categories/list-categories';
import { runIdempotently } from '../../lambdas/http/idempotency';
import { tenantPartition } from '../../lambdas/repositories/tenant-keys';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { invoke, lambdaContext, proxyEvent } from '../support/api-events';
import { companyPrincipal } from '../support/principals';

const create = (principal: ReturnType<typeof companyPrincipal>, body: unknown, key?: string) =>
  invoke(createCategory, {
    method: 'POST',
    path: '/v2/categories',
    principal,
    body,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });

describe('Idempotency-Key on creating POSTs', () => {
  it('responds to a retry with the first response and creates nothing new', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const first = await create(principal, { name: 'Vehicles' }, 'retry-1');
    const retry = await create(principal, { name: 'Vehicles' }, 'retry-1');
    const listed = await invoke(listCategories, { method: 'GET', path: '/v2/categories', principal });
    // Assess
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.Location).toBe(first.headers.Location);
    expect(listed.body.pagination.total).toBe(1);
  });

  it('refuses the same key with another body: 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const principal = companyPrincipal();
    await create(principal, { name: 'Tools' }, 'reuse-1');
    const reused = await create(principal, { name: 'Machines' }, 'reuse-1');
    expect(reused.statusCode).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('does not remember a failed request: the retry runs again', async () => {
    const principal = companyPrincipal();
    await create(principal, { name: 'Taken' });
    const failed = await create(principal, { name: 'Taken' }, 'after-failure');
    const again = await create(principal, { name: 'Taken' }, 'after-failure');
    expect(failed.statusCode).toBe(409);
    expect(again.statusCode).toBe(409);
    expect(again.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('keeps keys apart per tenant', async () => {
    const first = await create(companyPrincipal(), { name: 'Shared' }, 'same-key');
    const second = await create(companyPrincipal(), { name: 'Shared' }, 'same-key');
    expect(second.statusCode).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('runs without the header as usual, and refuses a malformed key', async () => {
    const principal = companyPrincipal();
    const plain = await create(principal, { name: 'Plain' });
    const malformed = await create(principal, { name: 'Other' }, 'has spaces in it');
    expect(plain.statusCode).toBe(201);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body.validationErrors[0]).toMatchObject({
      field: 'Idempotency-Key',
      code: 'FORMAT_INVALID',
    });
  });

  describe('a request that never finishes (its Lambda timed out)', () => {
    /** An invocation context whose deadline is `milliseconds` away. */
    const contextWithDeadline = (milliseconds: number) => {
      const deadline = Date.now() + milliseconds;
      return { ...lambdaContext, getRemainingTimeInMillis: () => deadline - Date.now() };
    };
    const event = () =>
      proxyEvent({
        method: 'POST',
        path: '/v2/things',
        body: { name: 'x' },
        headers: { 'Idempotency-Key': 'k-1' },
      });
    const neverSettles = () => new Promise<Record<string, unknown>>(() => {});
    const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
    /** Waits until the first request's "in progress" record is in the table. */
    async function recordSaved(tenantId: string): Promise<void> {
      for (let poll = 0; poll < 100; poll++) {
        const { Count = 0 } = await dynamoDb.send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `${tenantPartition(tenantId)}#IDEMPOTENCY` },
          }),
        );
        if (Count > 0) return;
        await sleep(20);
      }
      throw new Error('the first request saved no idempotency record');
    }

    it('holds its key in progress until its deadline: 409 IDEMPOTENCY_IN_PROGRESS', async () => {
      // Prepare
      const tenantId = crypto.randomUUID();
      void runIdempotently('testOperation', tenantId, event(), contextWithDeadline(60_000), neverSettles);
      await recordSaved(tenantId);
      // Act
      const retry = runIdempotently(
        'testOperation',
        tenantId,
        event(),
        contextWithDeadline(60_000),
        async () => ({
          ran: true,
        }),
      );
      // Assess
      await expect(retry).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    });

    it('frees its key after the deadline: the retry runs', async () => {
      // Prepare
      const tenantId = crypto.randomUUID();
      void runIdempotently('testOperation', tenantId, event(), contextWithDeadline(100), neverSettles);
      await recordSaved(tenantId);
      await sleep(300); // past the first request's deadline
      // Act
      const retry = await runIdempotently(
        'testOperation',
        tenantId,
        event(),
        contextWithDeadline(60_000),
        async () => ({
          ran: true,
        }),
      );
      // Assess
      expect(retry).toEqual({ ran: true });
    });
  });
});
