/**
 * How the command-line tools reach the data. Local mode (default): the running `npm start` of
 * `DATA_DIR`, whose addresses it wrote into the data folder. Deployed stack: `TABLE_NAME` (and
 * `DIGEST_BUCKET_NAME` for the ledger tools) with the usual AWS credentials and region.
 */
import {
  type SignInInstructions,
  signInInstructions,
} from '../local/identity-provider/sign-in-instructions.js';
import { AUTHORIZER_CACHE_PATH } from '../local/local-gateway.js';
import { dataDirectoryFromEnvironment, readStackState } from '../local/stack-state.js';
import { UsagePlans } from './usage-plans.js';

export interface StackConnection {
  target: 'local' | 'aws';
  /** API Gateway usage plans (AWS with `REST_API_ID` only). */
  usagePlans?: UsagePlans;
  /** Makes a revoked key stop working at once instead of when the authorizer cache expires. */
  flushAuthorizerCache(): Promise<void>;
  /** Local mode: the stack's own identity provider, and how its demo people sign in. */
  localSignIn?: { issuer: string; instructions: SignInInstructions };
}

/** Sets the environment the handler modules read; call before importing them. */
export function connectToStack(): StackConnection {
  if (process.env.TABLE_NAME) {
    const restApiId = process.env.REST_API_ID;
    const stageName = process.env.API_STAGE ?? 'prod';
    return {
      target: 'aws',
      usagePlans: restApiId ? new UsagePlans(restApiId, stageName) : undefined,
      async flushAuthorizerCache() {
        if (!restApiId) return; // without it, a revoked key is refused once the cache TTL runs out
        const { APIGatewayClient, FlushStageAuthorizersCacheCommand } = await import(
          '@aws-sdk/client-api-gateway'
        );
        await new APIGatewayClient({}).send(new FlushStageAuthorizersCacheCommand({ restApiId, stageName }));
      },
    };
  }
  const dataDirectory = dataDirectoryFromEnvironment();
  const state = readStackState(dataDirectory);
  if (!state) {
    throw new Error(
      `No running local stack for the data folder ${dataDirectory}: start it with \`npm start\` (same DATA_DIR), ` +
        'or set TABLE_NAME to use a deployed stack.',
    );
  }
  Object.assign(process.env, state.environment);
  return {
    target: 'local',
    localSignIn: {
      issuer: state.identityProvider.issuer,
      instructions: signInInstructions(state.gatewayUrl, state.identityProvider.passwordFile),
    },
    async flushAuthorizerCache() {
      const response = await fetch(`${state.gatewayUrl}${AUTHORIZER_CACHE_PATH}`, { method: 'DELETE' });
      await response.arrayBuffer();
    },
  };
}
