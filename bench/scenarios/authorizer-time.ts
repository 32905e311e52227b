/**
 * The authorizer handler's own time per call, warm, in process: for an API key (a memory cache
 * hit) and for a person's token of each algorithm the API accepts (the signature is verified on
 * every call). Credentials take turns in rounds, so that load from elsewhere on the machine
 * falls on all of them alike; each round starts with one untimed call per credential, which
 * keeps its caches warm (an API key is cached for 5 s only). The figure to read is the ratio to
 * the API key's time; nothing here is asserted.
 */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { handler as authorize } from '../../lambdas/authorizer/api-key-authorizer';
import type { DynamoDbMeter } from '../support/dynamodb-meter';
import { median, percentile, round } from '../support/statistics';

/** How many turns the credentials take; each opens with one untimed call per credential. */
export const AUTHORIZER_TIMING_ROUNDS = 20;

export interface TimedCredential {
  name: string;
  event: APIGatewayRequestAuthorizerEvent;
}

export interface AuthorizerTimeRow {
  credential: string;
  calls: number;
  medianMicroseconds: number;
  p99Microseconds: number;
  /** This credential's median ÷ the reference's (the first credential, the API key). */
  medianRatio: number;
  p99Ratio: number;
  /** DynamoDB calls made by the timed calls: 0 when every one of them was warm. */
  dynamoDbCalls: number;
}

async function authorizeAllowed(credential: TimedCredential): Promise<void> {
  const result = await authorize(credential.event);
  if (result.policyDocument.Statement[0]?.Effect !== 'Allow') {
    throw new Error(`The authorizer refused the ${credential.name}: ${JSON.stringify(result.context)}`);
  }
}

/** Times `calls` calls of each credential (the first is the reference of the ratios). */
export async function timeAuthorizerCalls(
  meter: DynamoDbMeter,
  credentials: TimedCredential[],
  calls: number,
): Promise<AuthorizerTimeRow[]> {
  const callsPerRound = Math.ceil(calls / AUTHORIZER_TIMING_ROUNDS);
  const measured = credentials.map((credential) => ({
    credential,
    samples: [] as number[],
    dynamoDbCalls: 0,
  }));
  for (let roundIndex = 0; roundIndex < AUTHORIZER_TIMING_ROUNDS; roundIndex++) {
    for (const each of measured) {
      await authorizeAllowed(each.credential);
      meter.reset();
      for (let call = 0; call < callsPerRound; call++) {
        const started = process.hrtime.bigint();
        await authorize(each.credential.event);
        each.samples.push(Number(process.hrtime.bigint() - started) / 1e3);
      }
      each.dynamoDbCalls += meter.read().calls;
    }
  }
  const reference = measured[0]?.samples ?? [];
  return measured.map(({ credential, samples, dynamoDbCalls }) => ({
    credential: credential.name,
    calls: samples.length,
    medianMicroseconds: round(median(samples), 1),
    p99Microseconds: round(percentile(samples, 0.99), 1),
    medianRatio: round(median(samples) / median(reference)),
    p99Ratio: round(percentile(samples, 0.99) / percentile(reference, 0.99)),
    dynamoDbCalls,
  }));
}
