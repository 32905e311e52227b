/**
 * Per operation, invoked in process against DynamoDB Local and s3rver:
 * - its DynamoDB calls and consumed capacity, counted by the SDK middleware on one warm
 *   request, next to the stated minimum (`bench/operation-minimums.ts`);
 * - its handler overhead: the median latency of the handler against the median latency of the
 *   same SDK calls sent again without it (each run recorded, then replayed at once with the same
 *   overlap).
 */
import { operationList } from '../../lambdas/operations';
import { operationMinimums, statedMinimumOf } from '../operation-minimums';
import type { CallRecorder } from '../support/call-recorder';
import { planReplay, type ReplayClients, type ReplayPlan, replay } from '../support/call-replay';
import { type DynamoDbMeter, describeCommands } from '../support/dynamodb-meter';
import { invokeExpecting } from '../support/handler-calls';
import type { S3Meter } from '../support/s3-meter';
import { median, percentile, round } from '../support/statistics';
import type { CaseWorld, OperationCase } from './operation-cases';

export interface OperationCallsRow {
  operation: string;
  fixture: string;
  dynamoDbCalls: number;
  commands: string;
  readUnits: number;
  writeUnits: number;
  s3Calls: string;
  minimum: number | null;
  overMinimum: number | null;
  minimumReason: string;
  /** Where the calls above the minimum come from (only when there are some). */
  excess?: string;
  capacityNote?: string;
  error?: string;
}

export interface OverheadRow {
  operation: string;
  runs: number;
  handlerMedianMs: number;
  handlerP95Ms: number;
  rawCallsMedianMs: number;
  overheadMs: number;
  ratio: number;
  replayedCalls: number;
  waves: number;
  notReplayed?: string;
}

export interface OperationCostsOptions {
  cases: OperationCase[];
  world: CaseWorld;
  meter: DynamoDbMeter;
  s3Meter: S3Meter;
  recorder: CallRecorder;
  clients: ReplayClients;
  runs: number;
  slowRuns: number;
  warmups: number;
  /** Report rows of the operation table that have no case (off when the cases were narrowed). */
  checkCoverage: boolean;
}

const elapsedMs = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

export async function runOperationCosts(
  options: OperationCostsOptions,
): Promise<{ calls: OperationCallsRow[]; overhead: OverheadRow[] }> {
  const calls: OperationCallsRow[] = [];
  const overhead: OverheadRow[] = [];
  const covered = new Set<string>(options.cases.map((each) => each.operationId));
  for (const operation of options.checkCoverage ? operationList : []) {
    if (!covered.has(operation.id)) {
      calls.push(
        failedRow(operation.id, '', 'no bench case for this operation (bench/scenarios/operation-cases.ts)'),
      );
    }
  }
  for (const operationCase of options.cases) {
    const operation = operationList.find((row) => row.id === operationCase.operationId);
    if (!operation) continue;
    process.stdout.write(`  ${operationCase.key} `);
    try {
      const prepared = await operationCase.prepare(options.world);
      for (let run = 1; run <= options.warmups; run++) {
        await invokeExpecting(operation, await prepared.request(-run));
      }

      // One warm request, metered.
      const request = await prepared.request(0);
      options.meter.reset();
      options.s3Meter.reset();
      await invokeExpecting(operation, request);
      const reading = options.meter.read();
      const s3Calls = options.s3Meter.read();
      const stated = operationMinimums[operationCase.key];
      const overMinimum = stated ? reading.calls - stated.calls : null;
      calls.push({
        operation: operationCase.key,
        fixture: operationCase.fixture,
        dynamoDbCalls: reading.calls,
        commands: describeCommands(reading.callsByCommand),
        readUnits: round(reading.readCapacityUnits, 1),
        writeUnits: round(reading.writeCapacityUnits, 1),
        s3Calls: describeCommands(s3Calls),
        minimum: stated?.calls ?? null,
        overMinimum,
        minimumReason: stated?.reason ?? 'no stated minimum (bench/operation-minimums.ts)',
        ...(overMinimum !== null && overMinimum > 0 && stated?.excess ? { excess: stated.excess } : {}),
        ...(stated?.capacityNote ? { capacityNote: stated.capacityNote } : {}),
      });

      // Each timed run is followed by the replay of its own calls, so both see the same
      // moment of the machine, and the replay writes back what the run has just written.
      const runs = operationCase.slow ? options.slowRuns : options.runs;
      const handlerSamples: number[] = [];
      const rawSamples: number[] = [];
      let plan: ReplayPlan = { waves: [], calls: 0, skipped: [] };
      for (let run = 1 - options.warmups; run <= runs; run++) {
        const timedRequest = await prepared.request(run);
        options.recorder.start();
        const started = process.hrtime.bigint();
        await invokeExpecting(operation, timedRequest);
        const handlerMs = elapsedMs(started);
        plan = planReplay(options.recorder.stop());
        const replayStarted = process.hrtime.bigint();
        await replay(plan, options.clients);
        if (run < 1) continue; // warm-up of the replay path
        handlerSamples.push(handlerMs);
        rawSamples.push(elapsedMs(replayStarted));
      }
      const handlerMedian = median(handlerSamples);
      const rawMedian = plan.calls > 0 ? median(rawSamples) : 0;
      overhead.push({
        operation: operationCase.key,
        runs,
        handlerMedianMs: round(handlerMedian),
        handlerP95Ms: round(percentile(handlerSamples, 0.95)),
        rawCallsMedianMs: round(rawMedian),
        overheadMs: round(handlerMedian - rawMedian),
        ratio: rawMedian > 0 ? round(handlerMedian / rawMedian) : Number.NaN,
        replayedCalls: plan.calls,
        waves: plan.waves.length,
        ...(plan.skipped.length > 0 ? { notReplayed: plan.skipped.join(', ') } : {}),
      });
      process.stdout.write(`${reading.calls} calls, ${round(handlerMedian)} ms\n`);
    } catch (error) {
      process.stdout.write('failed\n');
      calls.push(failedRow(operationCase.key, operationCase.fixture, String(error)));
    }
  }
  return { calls, overhead };
}

function failedRow(operation: string, fixture: string, error: string): OperationCallsRow {
  const stated = statedMinimumOf(operation);
  return {
    operation,
    fixture,
    dynamoDbCalls: Number.NaN,
    commands: '',
    readUnits: Number.NaN,
    writeUnits: Number.NaN,
    s3Calls: '',
    minimum: stated?.calls ?? null,
    overMinimum: null,
    minimumReason: stated?.reason ?? '',
    error: error.slice(0, 500),
  };
}
