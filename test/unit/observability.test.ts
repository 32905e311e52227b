/**
 * Logs and metrics as CloudWatch reads them: JSON log lines with Powertools Logger's keys, and
 * embedded-metric-format documents that CloudWatch turns into metrics, written by the handler
 * stack around a stand-in operation.
 */
import type { Context } from 'aws-lambda';
import { httpHandler } from '../../lambdas/http/http-handler';
import { logger } from '../../lambdas/shared/observability';
import { proxyEvent } from '../support/api-events';
import { companyPrincipal } from '../support/principals';

const operation = {
  method: 'GET' as const,
  path: '/v2/things',
  handler: 'things/list',
  summary: 'things',
  principal: 'company' as const,
  permission: 'objects:read' as const,
  deniedCode: 'COMPANY_ACCESS_DENIED' as const,
  successStatus: 200,
};
const context = {
  functionName: 'ListThingsFunction',
  memoryLimitInMB: '1024',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:ListThingsFunction',
  awsRequestId: 'request-1',
} as Context;

/** One JSON document written to stdout. */
type Written = Record<string, unknown> & { _aws?: unknown; level?: string };

/** Everything written to stdout during `run`, one parsed JSON document per line. */
async function writtenDuring(run: () => Promise<unknown>): Promise<Written[]> {
  const lines: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    write.mockRestore();
  }
  return lines
    .join('')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('logs and metrics of an invocation', () => {
  const settings = { ...process.env };
  let failNext = false;
  const handler = httpHandler(operation, async () => {
    if (failNext) throw new Error('the disk is on fire');
    logger.info('listing things', { count: 2 });
    return { body: { things: [] } };
  });
  const principal = companyPrincipal(['objects:read']);
  const call = (requestId: string) =>
    handler(proxyEvent({ method: 'GET', path: '/v2/things', principal }), {
      ...context,
      awsRequestId: requestId,
    });

  beforeAll(() => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  });
  afterAll(() => {
    process.env = settings;
  });

  it('counts a cold start once, by function, and each response by operation and status class, in EMF', async () => {
    // Act
    const first = await writtenDuring(() => call('request-1'));
    const second = await writtenDuring(() => call('request-2'));
    // Assess
    const emf = (documents: Written[]) => documents.filter((document) => document._aws);
    expect(emf(first)).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [
            {
              Namespace: 'AssetRegistry',
              Dimensions: [['service', 'function_name']],
              Metrics: [{ Name: 'ColdStart', Unit: 'Count' }],
            },
          ],
        },
        service: 'asset-registry',
        function_name: 'ListThingsFunction',
        ColdStart: 1,
      },
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [
            {
              Namespace: 'AssetRegistry',
              Dimensions: [['service', 'operation']],
              Metrics: [{ Name: 'Answers2xx', Unit: 'Count' }],
            },
          ],
        },
        service: 'asset-registry',
        operation: 'things/list',
        Answers2xx: 1,
      },
    ]);
    expect(emf(second).map((document) => Object.keys(document).at(-1))).toEqual(['Answers2xx']);
  });

  it("logs JSON lines with the invocation's fields and the caller's ids, never the key", async () => {
    // Act
    const [line] = await writtenDuring(() => call('request-3'));
    // Assess
    expect(line).toEqual({
      level: 'INFO',
      message: 'listing things',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      service: 'asset-registry',
      cold_start: false,
      function_arn: context.invokedFunctionArn,
      function_memory_size: 1024,
      function_name: 'ListThingsFunction',
      function_request_id: 'request-3',
      operation: 'things/list',
      principalType: 'company',
      tenantId: principal.tenantId,
      keyId: principal.keyId,
      count: 2,
    });
  });

  it('logs a failure at ERROR with the error named, located and its stack, and counts a 5xx', async () => {
    // Prepare
    failNext = true;
    // Act
    const written = await writtenDuring(() => call('request-4'));
    failNext = false;
    // Assess
    const errorLine = written.find((document) => document.level === 'ERROR');
    expect(errorLine?.function_request_id).toBe('request-4');
    expect(JSON.stringify(errorLine)).toContain('the disk is on fire');
    expect(JSON.stringify(errorLine)).toMatch(/observability\.test\.ts:\d+/);
    expect(written.find((document) => document._aws)?.Answers5xx).toBe(1);
  });

  it('writes nothing below the configured level, and no metrics when they are turned off', async () => {
    // Prepare
    process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    // Act
    const written = await writtenDuring(() => call('request-5'));
    // Assess
    expect(written).toEqual([]);
  });
});
