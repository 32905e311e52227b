/**
 * Sends recorded SDK calls again, on the same clients, with the same inputs and the same
 * overlap (calls that ran side by side in the handler run side by side here): the time the
 * operation would take if the handler added nothing around its calls.
 *
 * Writes are replayed with their conditions kept but made to pass
 * (`attribute_not_exists(#benchReplayNever) OR (<condition>)`), so DynamoDB still parses and
 * evaluates them while the replay never fails on the state the handler left behind; replayed
 * right after the run they come from, they write what is already there (counters aside).
 * Replays write into the bench's own tenants only.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AwsRequest, AwsResponse } from '../../lambdas/shared/aws-requests';
import type { RecordedCall, SdkClientName } from './call-recorder';

// biome-ignore lint/suspicious/noExplicitAny: commands of every input shape
type AnyCommand = any;
// biome-ignore lint/suspicious/noExplicitAny: command classes of every input shape
type CommandClass = new (input: any) => AnyCommand;

/** The document-client command for each low-level command name the meter sees. */
const DOCUMENT_COMMANDS: Record<string, CommandClass> = {
  GetItem: GetCommand,
  PutItem: PutCommand,
  UpdateItem: UpdateCommand,
  DeleteItem: DeleteCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  BatchGetItem: BatchGetCommand,
  BatchWriteItem: BatchWriteCommand,
  TransactGetItems: TransactGetCommand,
  TransactWriteItems: TransactWriteCommand,
};

export interface ReplayClients {
  // biome-ignore lint/suspicious/noExplicitAny: the document client's `send` takes every command
  dynamoDb: { send(command: any): Promise<unknown> };
  sendAws(request: AwsRequest): Promise<AwsResponse>;
}

interface ReadyCall {
  client: SdkClientName;
  command: AnyCommand;
}

export interface ReplayPlan {
  /** Groups of calls that overlapped in time; each group is sent after the previous one ended. */
  waves: ReadyCall[][];
  calls: number;
  /** Calls whose input could not be copied (a streamed body): left out. */
  skipped: string[];
}

/** Groups the recorded calls into waves of calls that ran side by side, with fresh commands. */
export function planReplay(calls: RecordedCall[]): ReplayPlan {
  const waves: ReadyCall[][] = [];
  const skipped: string[] = [];
  let waveEnd = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.startedAtMs - b.startedAtMs)) {
    const command = commandFor(call);
    if (!command) {
      skipped.push(`${call.client}:${call.commandName}`);
      continue;
    }
    const current = waves.at(-1);
    if (current && call.startedAtMs < waveEnd) {
      current.push({ client: call.client, command });
      waveEnd = Math.max(waveEnd, call.endedAtMs);
    } else {
      waves.push([{ client: call.client, command }]);
      waveEnd = call.endedAtMs;
    }
  }
  return { waves, calls: waves.flat().length, skipped };
}

function commandFor(call: RecordedCall): AnyCommand | undefined {
  // A signed request is sent again as it is (it holds its signer, which cannot be copied).
  if (call.client === 's3') return call.input;
  let input: unknown;
  try {
    input = structuredClone(call.input);
  } catch {
    return undefined; // streams and other live objects cannot be copied
  }
  if (call.client === 'dynamodb') {
    const Command = DOCUMENT_COMMANDS[call.commandName];
    if (!Command) throw new Error(`No replay for DynamoDB ${call.commandName}`);
    return new Command(withPassingConditions(input));
  }
  throw new Error(`No replay for ${call.client} ${call.commandName}`);
}

/** Sends the plan's calls once (a plan is sent once: build another for the next run). */
export async function replay(plan: ReplayPlan, clients: ReplayClients): Promise<void> {
  for (const wave of plan.waves) {
    await Promise.all(wave.map((call) => sendAgain(call, clients)));
  }
}

async function sendAgain(call: ReadyCall, clients: ReplayClients): Promise<void> {
  try {
    if (call.client === 'dynamodb') {
      await clients.dynamoDb.send(call.command);
      return;
    }
    const response = await clients.sendAws(call.command as AwsRequest);
    // As the handler did: read the body, or the connection stays busy.
    for await (const _ of response.body);
  } catch {
    // A replayed call that fails (an S3 version deleted since) still took its round trip.
  }
}

type Writable = Record<string, unknown> & {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
};

const NEVER_NAME = '#benchReplayNever';

function passing(request: Writable | undefined): void {
  if (!request?.ConditionExpression) return;
  request.ConditionExpression = `attribute_not_exists(${NEVER_NAME}) OR (${request.ConditionExpression})`;
  request.ExpressionAttributeNames = {
    ...request.ExpressionAttributeNames,
    [NEVER_NAME]: 'benchReplayNever',
  };
}

/** Makes every condition of a write pass while keeping it in the request. */
function withPassingConditions<T>(input: T): T {
  const request = input as Writable & { TransactItems?: Array<Record<string, Writable | undefined>> };
  passing(request);
  for (const item of request.TransactItems ?? []) {
    passing(item.Put);
    passing(item.Update);
    passing(item.Delete);
    passing(item.ConditionCheck);
  }
  return input;
}
