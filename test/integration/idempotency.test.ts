import { handler as createCategory } from '../../lambdas/handlers/categories/create-category';
import { handler as listCategories } from '../../lambdas/handlers/categories/list-categories';
import { invoke } from '../support/api-events';
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
  it('answers a retry with the first answer and creates nothing new', async () => {
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
});
