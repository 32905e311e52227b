/**
 * Counts what the code under test asks of DynamoDB, with an SDK middleware on the shared
 * client (not guesswork): the calls per command, failed ones included (a cancelled transaction
 * is a call that was paid for), the HTTP attempts (SDK retries included), why transactions were
 * cancelled, and the capacity DynamoDB reports consumed (every call is sent with
 * `ReturnConsumedCapacity: TOTAL`). It can also hand each call to a {@link CallRecorder}.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CallRecorder } from './call-recorder';

interface MeterReading {
  calls: number;
  /** Calls that ended in an error (e.g. a transaction cancelled by a condition or a conflict). */
  failedCalls: number;
  /** HTTP requests sent, SDK retries included. */
  attempts: number;
  /** Calls per command, `GetItem`, `TransactWriteItems`, ... (without the `Command` suffix). */
  callsByCommand: Record<string, number>;
  /** Cancelled transactions per reason (`ConditionalCheckFailed`, `TransactionConflict`, ...), once per call. */
  cancellations: Record<string, number>;
  readCapacityUnits: number;
  writeCapacityUnits: number;
}

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const READ_COMMANDS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

export interface DynamoDbMeter {
  reset(): void;
  read(): MeterReading;
}

const emptyReading = (): MeterReading => ({
  calls: 0,
  failedCalls: 0,
  attempts: 0,
  callsByCommand: {},
  cancellations: {},
  readCapacityUnits: 0,
  writeCapacityUnits: 0,
});

/** `{ GetItem: 2, TransactWriteItems: 1 }` → `GetItem×2, TransactWriteItems×1`. */
export function describeCommands(callsByCommand: Record<string, number>): string {
  return Object.entries(callsByCommand)
    .map(([command, count]) => `${command}×${count}`)
    .join(', ');
}

export function installDynamoDbMeter(client: DynamoDBClient, recorder?: CallRecorder): DynamoDbMeter {
  let reading = emptyReading();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
      const end = recorder?.begin('dynamodb', command, input);
      reading.calls++;
      reading.callsByCommand[command] = (reading.callsByCommand[command] ?? 0) + 1;
      try {
        const result = await next(args);
        const output = result.output as {
          ConsumedCapacity?: Capacity | Capacity[];
          $metadata?: { attempts?: number };
        };
        reading.attempts += output.$metadata?.attempts ?? 1;
        addCapacity(reading, command, output.ConsumedCapacity);
        end?.(false);
        return result;
      } catch (error) {
        reading.failedCalls++;
        const failure = error as {
          $metadata?: { attempts?: number };
          CancellationReasons?: Array<{ Code?: string }>;
        };
        reading.attempts += failure.$metadata?.attempts ?? 1;
        // Each reason once per call; `None` marks the items that did not cause the cancellation.
        const reasons = new Set((failure.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None'));
        reasons.delete('None');
        for (const reason of reasons)
          reading.cancellations[reason] = (reading.cancellations[reason] ?? 0) + 1;
        end?.(true);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchDynamoDbMeter', override: true },
  );
  return {
    reset: () => {
      reading = emptyReading();
    },
    read: () => structuredClone(reading),
  };
}

function addCapacity(reading: MeterReading, command: string, consumed: Capacity | Capacity[] | undefined) {
  for (const capacity of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
    // DynamoDB Local often reports only the total; a read command's units are reads, others writes.
    if (capacity.ReadCapacityUnits !== undefined || capacity.WriteCapacityUnits !== undefined) {
      reading.readCapacityUnits += capacity.ReadCapacityUnits ?? 0;
      reading.writeCapacityUnits += capacity.WriteCapacityUnits ?? 0;
    } else if (READ_COMMANDS.has(command)) reading.readCapacityUnits += capacity.CapacityUnits ?? 0;
    else reading.writeCapacityUnits += capacity.CapacityUnits ?? 0;
  }
}
