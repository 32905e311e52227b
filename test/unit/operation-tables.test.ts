/**
 * The tables keyed by operation id (docs/adding-an-operation.md): each is typed by the operation
 * table's ids, so that a missing or misspelled operation does not compile. The type checks here
 * run in `tsc --noEmit -p .` (part of `npm test`): a table loosened to `Record<string, …>` makes
 * its `@ts-expect-error` line unused, and its `SameKeys` line false, and so fails the type check.
 * The assertions check the same at run time, where a cast could have hidden a gap.
 */

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CaseKey,
  type MeasuredOperationId,
  operationMinimums,
  UNMEASURED_OPERATIONS,
} from '../../bench/operation-minimums';
import { operationResponses } from '../../lambdas/openapi/operation-responses';
import { type OperationId, operationList, operations } from '../../lambdas/operations';

/** `true` when the two key sets are the same. */
type SameKeys<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false;

const responsesKeyedByOperation: SameKeys<keyof typeof operationResponses, OperationId> = true;
const minimumsKeyedByCase: SameKeys<keyof typeof operationMinimums, CaseKey> = true;
const everyOperationMeasuredOrListed: SameKeys<
  MeasuredOperationId | keyof typeof UNMEASURED_OPERATIONS,
  OperationId
> = true;

const LAMBDAS = join(__dirname, '..', '..', 'lambdas');

describe('the operation table', () => {
  it('holds every row of every file of lambdas/operations/ (a new group is spread into operations.ts)', async () => {
    // Prepare
    const folder = join(LAMBDAS, 'operations');
    const rowIds: string[] = [];
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      const group = (await import(join(folder, file))) as Record<string, Record<string, unknown>>;
      for (const rows of Object.values(group)) rowIds.push(...Object.keys(rows));
    }

    // Assess
    expect(rowIds.sort()).toEqual(Object.keys(operations).sort());
  });

  it.each(operationList)('has the handler file that $id names', ({ handler }) => {
    expect(existsSync(join(LAMBDAS, 'handlers', `${handler}.ts`))).toBe(true);
  });
});

describe('tables keyed by operation', () => {
  it('do not compile with an operation missing or misspelled', () => {
    // @ts-expect-error a responses table without every operation
    const missing: typeof operationResponses = { listCategories: { body: 'CategoryPage' } };
    const misspelled: typeof operationResponses = {
      ...operationResponses,
      // @ts-expect-error an operation the table does not have
      listCategory: { body: 'CategoryPage' },
    };
    const minimum: typeof operationMinimums = {
      ...operationMinimums,
      // @ts-expect-error a minimum for an operation the table does not have
      getCategorie: { calls: 1, reason: '' },
    };
    const noBody: typeof operationResponses = {
      ...operationResponses,
      // @ts-expect-error a 204 row's entry names no body
      deleteWallet: { body: 'Wallet' },
    };

    expect([missing, misspelled, minimum, noBody]).toHaveLength(4);
    expect([responsesKeyedByOperation, minimumsKeyedByCase, everyOperationMeasuredOrListed]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('document the responses of every operation of the table, and of no other', () => {
    expect(Object.keys(operationResponses).sort()).toEqual(Object.keys(operations).sort());
  });

  it('give the bench a minimum for each measured operation and its variants, and none to the others', () => {
    // Prepare
    const unmeasured = Object.keys(UNMEASURED_OPERATIONS);
    const measured = Object.keys(operations).filter((id) => !unmeasured.includes(id));
    const stated = Object.keys(operationMinimums);

    // Assess
    expect(stated.filter((key) => key in operations).sort()).toEqual(measured.sort());
    expect(
      stated.filter((key) => !(key in operations) && !measured.includes(key.split(' + ')[0] ?? '')),
    ).toEqual([]);
  });
});
