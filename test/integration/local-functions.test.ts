/**
 * Local mode's Lambda service (`local/functions/`): each function runs from its esbuild bundle in
 * execution environments of its own, with exactly the variables it is given, its own module
 * state, its timeout and one invocation at a time per environment, as Lambda runs it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionBundles } from '../../local/functions/function-bundles';
import { FunctionError, LocalFunctions } from '../../local/functions/local-functions';
import type { LocalFunction } from '../../local/synthesized/local-stack';

const PROBE_ENTRY = join(__dirname, '..', 'support', 'fixtures', 'runtime-probe.ts');

const probe = (name: string, overrides: Partial<LocalFunction> = {}): LocalFunction => ({
  name,
  logicalId: name,
  arn: `arn:aws:lambda:eu-west-1:000000000000:function:${name}`,
  entry: PROBE_ENTRY,
  environment: { TABLE_NAME: `${name}-table`, NODE_OPTIONS: '--enable-source-maps' },
  timeoutSeconds: 10,
  memoryMb: 256,
  roleArn: `arn:aws:iam::000000000000:role/${name}`,
  policies: [],
  ...overrides,
});

type ProbeResponse = { invocations: number; remainingMs: number; environment?: Record<string, string> };

describe('local Lambda service', () => {
  let functions: LocalFunctions;
  const bundles = functionBundles([PROBE_ENTRY]);

  beforeAll(() => {
    functions = new LocalFunctions({
      functions: [probe('probe-a'), probe('probe-b'), probe('probe-slow', { timeoutSeconds: 1 })],
      bundles,
      region: 'eu-west-1',
      logDirectory: mkdtempSync(join(tmpdir(), 'local-functions-logs-')),
      platformEnvironment: (localFunction) => ({ AWS_ACCESS_KEY_ID: `KEY${localFunction.name.length}` }),
      maxEnvironmentsPerFunction: 2,
    });
  });
  afterAll(() => functions.close());

  it('gives a function exactly its own variables, what Lambda sets and the platform adds', async () => {
    // Act
    const response = (await functions.invoke('probe-a', { action: 'environment' })) as ProbeResponse;
    // Assess
    expect(response.environment).toEqual({
      TABLE_NAME: 'probe-a-table',
      NODE_OPTIONS: '--enable-source-maps',
      AWS_REGION: 'eu-west-1',
      AWS_DEFAULT_REGION: 'eu-west-1',
      AWS_LAMBDA_FUNCTION_NAME: 'probe-a',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/probe-a',
      AWS_LAMBDA_LOG_STREAM_NAME: 'local',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      LAMBDA_TASK_ROOT: '/var/task',
      TZ: ':UTC',
      AWS_ACCESS_KEY_ID: 'KEY7',
    });
    expect(process.env.TABLE_NAME).not.toBe('probe-a-table');
  });

  it('keeps an environment warm, and gives each function its own module state', async () => {
    // Act
    const first = (await functions.invoke('probe-b', { action: 'count' })) as ProbeResponse;
    const second = (await functions.invoke('probe-b', { action: 'count' })) as ProbeResponse;
    const other = (await functions.invoke('probe-a', { action: 'count' })) as ProbeResponse;
    // Assess
    expect([first.invocations, second.invocations]).toEqual([1, 2]);
    expect(other.invocations).toBe(2); // probe-a's environment served the test above
  });

  it('runs one invocation at a time per environment, and starts more up to the limit', async () => {
    // Arrange
    const coldStartsBefore = functions.statistics.coldStarts;
    // Act
    const responses = (await Promise.all(
      [1, 2, 3].map(() => functions.invoke('probe-b', { action: 'sleep', milliseconds: 300 })),
    )) as ProbeResponse[];
    // Assess: two environments (the limit), the warm one and one cold start; the third waited.
    expect(functions.statistics.coldStarts - coldStartsBefore).toBe(1);
    expect(responses.map((response) => response.invocations).sort()).toEqual([1, 3, 4]);
  });

  it("stops an invocation past the function's timeout, and discards its environment", async () => {
    // Act
    const late = functions.invoke('probe-slow', { action: 'sleep', milliseconds: 5000 });
    // Assess
    await expect(late).rejects.toMatchObject({
      errorType: 'Sandbox.Timedout',
      message: 'Task timed out after 1.00 seconds',
    });
    const next = (await functions.invoke('probe-slow', { action: 'count' })) as ProbeResponse;
    expect(next.invocations).toBe(1);
    expect(next.remainingMs).toBeGreaterThan(500);
    expect(next.remainingMs).toBeLessThanOrEqual(1000);
  });

  it("returns a handler's error as Lambda does, and the environment stays warm", async () => {
    // Act
    const failed = functions.invoke('probe-a', { action: 'throw' });
    // Assess
    await expect(failed).rejects.toBeInstanceOf(FunctionError);
    await expect(failed).rejects.toMatchObject({
      errorType: 'TypeError',
      message: 'the probe was asked to fail',
    });
    const after = (await functions.invoke('probe-a', { action: 'count' })) as ProbeResponse;
    expect(after.invocations).toBe(4);
  });

  it('builds the bundle with the settings that deploy (minified, with a source map)', async () => {
    // Act
    const bundlePath = (await bundles).get(PROBE_ENTRY) as string;
    // Assess
    const { readFileSync, existsSync } = await import('node:fs');
    expect(readFileSync(bundlePath, 'utf8')).toContain('sourceMappingURL=index.js.map');
    expect(existsSync(`${bundlePath}.map`)).toBe(true);
  });
});
