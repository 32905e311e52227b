/**
 * Counts what the code under test asks of DynamoDB, with an SDK middleware on the shared
 * client (not guesswork): the calls per command, and the capacity DynamoDB reports consumed
 * (every call is sent with `ReturnConsumedCapacity: TOTAL`).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface MeterReading {
  calls: number;
  callsByCommand: Record<string, number>;
  readCapacityUnits: number;
  writeCapacityUnits: number;
}

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const READ_COMMANDS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
  'GetCommand',
  'BatchGetCommand',
  'TransactGetCommand',
]);

export interface DynamoDbMeter {
  reset(): void;
  read(): MeterReading;
}

export function installDynamoDbMeter(client: DynamoDBClient): DynamoDbMeter {
  let reading: MeterReading = { calls: 0, callsByCommand: {}, readCapacityUnits: 0, writeCapacityUnits: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const commandName = context.commandName ?? 'unknown';
      reading.calls++;
      reading.callsByCommand[commandName] = (reading.callsByCommand[commandName] ?? 0) + 1;
      const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
      for (const capacity of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        const units = capacity.CapacityUnits ?? 0;
        // DynamoDB Local reports only the total; a read command's units are reads, others writes.
        if (capacity.ReadCapacityUnits !== undefined || capacity.WriteCapacityUnits !== undefined) {
          reading.readCapacityUnits += capacity.ReadCapacityUnits ?? 0;
          reading.writeCapacityUnits += capacity.WriteCapacityUnits ?? 0;
        } else if (READ_COMMANDS.has(commandName)) reading.readCapacityUnits += units;
        else reading.writeCapacityUnits += units;
      }
      return result;
    },
    { step: 'initialize', name: 'benchDynamoDbMeter', override: true },
  );
  return {
    reset: () => {
      reading = { calls: 0, callsByCommand: {}, readCapacityUnits: 0, writeCapacityUnits: 0 };
    },
    read: () => structuredClone(reading),
  };
}
