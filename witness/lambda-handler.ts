/**
 * The witness as a Lambda function behind a function URL (payload format 2.0): its checkpoints
 * in DynamoDB (`dynamodb-store.ts`), its key in KMS (the log signer's `kmsSigner`, which signs
 * pure Ed25519). Routes and statuses are `witness-routes.ts`'s, as for the local server.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { kmsSigner } from '../lambdas/domain/ledger/log-signer.js';
import { dynamoDbWitnessStore } from './dynamodb-store.js';
import { createWitness, type Witness } from './witness.js';
import { WITNESS_ENVIRONMENT } from './witness-environment.js';
import { MAX_BODY_BYTES, routeWitnessRequest } from './witness-routes.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Made once per instance: the KMS public key and the parsed log keys are read on its first request. */
let witness: Promise<Witness> | undefined;
const witnessOfEnvironment = (): Promise<Witness> => {
  witness ??= createWitness({
    signer: kmsSigner(required(WITNESS_ENVIRONMENT.name), required(WITNESS_ENVIRONMENT.keyId)),
    logs: required(WITNESS_ENVIRONMENT.logs).split('\n').filter(Boolean),
    store: dynamoDbWitnessStore(required(WITNESS_ENVIRONMENT.tableName)),
    // Evidence of a fork, kept in the function's log group.
    recordInconsistency: (evidence) =>
      console.log(JSON.stringify({ message: 'inconsistent checkpoint', ...evidence })),
  }).then(
    (made) => {
      console.log(JSON.stringify({ message: 'witness ready', verifierKey: made.verifierKey }));
      return made;
    },
    (error: unknown) => {
      witness = undefined;
      throw error;
    },
  );
  return witness;
};

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.length > MAX_BODY_BYTES) {
    return { statusCode: 413, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'too large\n' };
  }
  const response = await routeWitnessRequest(await witnessOfEnvironment(), {
    method: event.requestContext.http.method,
    path: event.rawPath,
    body: body.toString('utf8'),
  });
  return { statusCode: response.status, headers: response.headers, body: response.body };
}
