/**
 * Ledger contention: N updates at once on one object (every one races for the same next
 * sequence number) against N updates at once on N objects, through the update handler in
 * process. Successes per second, 409 CONCURRENT_MODIFICATION responses, and retries, counted as
 * TransactWriteItems calls beyond one per request (lost races re-read and try again; cancelled
 * transactions are retried). Each chain is verified afterwards: no event lost or duplicated.
 */
import { operations } from '../../lambdas/operations';
import type { DynamoDbMeter } from '../support/dynamodb-meter';
import { givenObject, givenPlace, newCompany } from '../support/fixtures';
import { invokeExpecting, invokeOperation } from '../support/handler-calls';
import { round } from '../support/statistics';

export interface ContentionRow {
  scenario: string;
  concurrentUpdates: number;
  rounds: number;
  requests: number;
  successes: number;
  conflicts409: number;
  otherFailures: number;
  wallMs: number;
  successesPerSecond: number;
  transactWriteCalls: number;
  retries: number;
  conditionFailures: number;
  transactionConflicts: number;
  objectReads: number;
  chainsValid: boolean;
}

const updateObject = operations.updateObject;
const verifyObject = operations.verifyObject;

export async function runLedgerContention(options: {
  meter: DynamoDbMeter;
  concurrency: number;
  rounds: number;
  /** Writer counts on one hot object, to see how successes per second change with them. */
  hotObjectWriters?: number[];
}): Promise<ContentionRow[]> {
  const company = await newCompany('Bench contention');
  const place = await givenPlace(company);
  const rows: ContentionRow[] = [];
  const plan = [
    ...(options.hotObjectWriters ?? [options.concurrency]).map((writers) => ({
      scenario: 'one object' as const,
      concurrency: writers,
    })),
    { scenario: 'different objects' as const, concurrency: options.concurrency },
  ];
  for (const { scenario, concurrency } of plan) {
    const objectCount = scenario === 'one object' ? 1 : concurrency;
    const objectIds: string[] = [];
    for (let index = 0; index < objectCount; index++) objectIds.push(await givenObject(company, place));
    let successes = 0;
    let conflicts = 0;
    let otherFailures = 0;
    let wallMs = 0;
    options.meter.reset();
    for (let round = 0; round < options.rounds; round++) {
      const started = process.hrtime.bigint();
      const responses = await Promise.all(
        Array.from({ length: concurrency }, (_, index) =>
          invokeOperation(updateObject, {
            principal: company.principal,
            pathParameters: { objectId: objectIds[index % objectIds.length] as string },
            body: { action: 'update', description: `Round ${round} update ${index}` },
          }),
        ),
      );
      wallMs += Number(process.hrtime.bigint() - started) / 1e6;
      for (const response of responses) {
        if (response.statusCode === 200) successes++;
        else if (response.statusCode === 409) conflicts++;
        else otherFailures++;
      }
    }
    const reading = options.meter.read();
    const requests = concurrency * options.rounds;
    const transactWriteCalls = reading.callsByCommand.TransactWriteItems ?? 0;
    // Every chain must hold exactly its creation plus the successful updates.
    let eventsRecorded = 0;
    let chainsValid = true;
    for (const objectId of objectIds) {
      const verification = await invokeExpecting(verifyObject, {
        principal: company.principal,
        pathParameters: { objectId },
      });
      chainsValid &&= verification.body.valid === true;
      eventsRecorded += (verification.body.eventCount as number) - 1;
    }
    rows.push({
      scenario: `${concurrency} updates at once on ${scenario === 'one object' ? 'one object' : `${objectCount} objects`}`,
      concurrentUpdates: concurrency,
      rounds: options.rounds,
      requests,
      successes,
      conflicts409: conflicts,
      otherFailures,
      wallMs: round(wallMs, 0),
      successesPerSecond: round(successes / (wallMs / 1000), 0),
      transactWriteCalls,
      retries: transactWriteCalls - requests,
      conditionFailures: reading.cancellations.ConditionalCheckFailed ?? 0,
      transactionConflicts: reading.cancellations.TransactionConflict ?? 0,
      objectReads: Math.round((reading.callsByCommand.GetItem ?? 0) / 2),
      chainsValid: chainsValid && eventsRecorded === successes,
    });
  }
  return rows;
}
