/**
 * IAM is enforced in local mode: every AWS call a function makes is checked against its role's
 * policies from the synthesized templates. The same request that works with the stack as it
 * synthesizes fails, as it would in AWS, when one action is taken from one function's policy:
 * the API responds 500 with the spec's body, and the log names the function, action and resource.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StackEnvironment } from '../../local/embedded-stack';
import { freePort } from '../../local/free-port';
import { type StackFunctions, startStackFunctions } from '../../local/functions/stack-functions';
import { type LocalGateway, startLocalGateway } from '../../local/local-gateway';
import { cachedLocalStack } from '../../local/synthesized/cached-local-stack';
import type { LocalStack } from '../../local/synthesized/local-stack';

const environment = process.env as unknown as StackEnvironment;
/** A synthesis (the cached stack is stale once lib/ or lambdas/ changed) or a build of the bundles takes 15-20 s. */
const SYNTHESIS_TIMEOUT_MS = 120_000;

/** The stack with `action` taken out of every statement of one function's policies. */
function withoutAction(stack: LocalStack, functionName: string, action: string): LocalStack {
  const functions = stack.functions.map((each) =>
    each.name !== functionName
      ? each
      : {
          ...each,
          policies: each.policies.map(({ name, policy }) => ({
            name,
            policy: {
              ...policy,
              Statement: ([policy.Statement].flat() as Array<{ Action: string | string[] }>)
                .map((statement) => ({
                  ...statement,
                  Action: [statement.Action].flat().filter((a) => a !== action),
                }))
                .filter((statement) => statement.Action.length > 0),
            },
          })),
        },
  );
  return { ...stack, functions };
}

async function startApi(stack: LocalStack, log: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const functions: StackFunctions = await startStackFunctions({
    environment,
    dataDirectory: mkdtempSync(join(tmpdir(), 'local-iam-')),
    corsAllowedOrigins: [],
    stack,
    log: (line) => log.push(line),
  });
  const port = await freePort();
  const gateway: LocalGateway = await startLocalGateway({ port, apiFunctions: functions.apiFunctions });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await gateway.close();
      await functions.stop();
    },
  };
}

describe('IAM enforced locally', () => {
  let stack: LocalStack;
  let apiKey: string;

  beforeAll(async () => {
    stack = await cachedLocalStack({ region: environment.AWS_REGION, corsAllowedOrigins: [] });
    const { createCompany } = await import('../../lambdas/domain/identity/tenants.js');
    ({ apiKey } = await createCompany('IAM probe'));
  }, SYNTHESIS_TIMEOUT_MS);

  it(
    'lets every call of a request through with the policies as synthesized',
    async () => {
      // Arrange
      const log: string[] = [];
      const api = await startApi(stack, log);
      try {
        // Act
        const response = await fetch(`${api.url}/v2/categories`, { headers: { 'X-API-Key': apiKey } });
        // Assess
        expect(response.status).toBe(200);
        expect(log).toEqual([]);
      } finally {
        await api.stop();
      }
    },
    SYNTHESIS_TIMEOUT_MS,
  );

  it(
    'refuses the call whose action one policy no longer grants, as AWS would',
    async () => {
      // Arrange
      const listCategories = stack.api.operations.listCategories as string;
      const log: string[] = [];
      const api = await startApi(withoutAction(stack, listCategories, 'dynamodb:Query'), log);
      try {
        // Act
        const response = await fetch(`${api.url}/v2/categories`, { headers: { 'X-API-Key': apiKey } });
        // Assess
        expect(response.status).toBe(500);
        expect(await response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
        const refusals = log.map((line) => JSON.parse(line) as Record<string, string>);
        expect(refusals).toContainEqual(
          expect.objectContaining({
            functionName: listCategories,
            action: 'dynamodb:Query',
            resource: expect.stringMatching(
              /^arn:aws:dynamodb:[^:]+:000000000000:table\/asset-registry(\/index\/\w+)?$/,
            ),
          }),
        );
      } finally {
        await api.stop();
      }
    },
    SYNTHESIS_TIMEOUT_MS,
  );
});
