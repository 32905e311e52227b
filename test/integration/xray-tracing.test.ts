/**
 * X-Ray traces without the X-Ray SDK: a handler invocation sends its `## handler` subsegment and
 * one subsegment per DynamoDB and S3 call to the daemon address, as segment documents over UDP;
 * here the "daemon" is a UDP socket of the test, and the calls go to DynamoDB Local and s3rver.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { listCategories } from '../support/category-requests';
import { uploadParts } from '../support/file-requests';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';

interface SegmentDocument {
  type: string;
  id: string;
  trace_id: string;
  parent_id: string;
  name: string;
  start_time: number;
  end_time: number;
  namespace?: string;
  annotations?: Record<string, unknown>;
  aws?: Record<string, unknown>;
  http?: { response?: { status?: number } };
}

const TRACE_ROOT = '1-67891233-abcdef012345678912345678';
const LAMBDA_SEGMENT = '53995c3f42cd8ad8';

describe('X-Ray tracing', () => {
  let daemon: Socket;
  let received: SegmentDocument[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    daemon = createSocket('udp4');
    daemon.on('message', (message) => {
      const [header, body] = message.toString('utf8').split('\n');
      expect(JSON.parse(header ?? '')).toEqual({ format: 'json', version: 1 });
      received.push(JSON.parse(body ?? '') as SegmentDocument);
    });
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;
    process.env.POWERTOOLS_TRACE_ENABLED = 'true';
  });

  beforeEach(() => {
    received = [];
  });

  afterAll(() => {
    process.env = saved;
    daemon.close();
  });

  const documentsAfter = async (count: number) => {
    for (let waited = 0; received.length < count && waited < 2000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return received;
  };

  it('sends the handler subsegment under Lambda’s segment and each DynamoDB call under it', async () => {
    // Prepare
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${LAMBDA_SEGMENT};Sampled=1`;
    // Act
    const response = await listCategories(companyPrincipal());
    const documents = await documentsAfter(3);
    // Assess
    expect(response.statusCode).toBe(200);
    const handler = documents.find((document) => document.name === '## handler');
    expect(handler).toMatchObject({
      type: 'subsegment',
      trace_id: TRACE_ROOT,
      parent_id: LAMBDA_SEGMENT,
      annotations: {
        ColdStart: expect.any(Boolean),
        Service: expect.any(String),
        operation: 'listCategories',
      },
      http: { response: { status: 200 } },
    });
    expect(handler?.id).toMatch(/^[0-9a-f]{16}$/);
    const calls = documents.filter((document) => document.name === 'DynamoDB');
    expect(calls.map((call) => call.aws?.operation).sort()).toEqual(['GetItem', 'Query']);
    for (const call of calls) {
      expect(call).toMatchObject({
        type: 'subsegment',
        namespace: 'aws',
        trace_id: TRACE_ROOT,
        parent_id: handler?.id,
        aws: { table_name: process.env.TABLE_NAME, retries: 0, request_id: expect.any(String) },
        http: { response: { status: 200 } },
      });
      expect(call.end_time).toBeGreaterThanOrEqual(call.start_time);
    }
  });

  it('sends nothing for an invocation that is not sampled', async () => {
    // Prepare
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${LAMBDA_SEGMENT};Sampled=0`;
    // Act
    const response = await listCategories(companyPrincipal());
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Assess
    expect(response.statusCode).toBe(200);
    expect(received).toEqual([]);
  });

  it('sends a subsegment for each S3 request under the handler, with its operation and bucket', async () => {
    // Prepare
    const principal = companyPrincipal();
    const object = (await givenObject(principal, await givenSubcategoryPath(principal))) as { id: string };
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ROOT};Parent=${LAMBDA_SEGMENT};Sampled=1`;
    received = [];
    // Act
    const response = await uploadParts(principal, object.id, [
      {
        name: 'file',
        fileName: 'notes.txt',
        contentType: 'text/plain',
        content: Buffer.from('traced bytes'),
      },
    ]);
    // The handler's subsegment is sent last, when the invocation ends.
    for (
      let waited = 0;
      !received.some((document) => document.name === '## handler') && waited < 2000;
      waited += 20
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const documents = received;
    // Assess
    expect(response.statusCode).toBe(201);
    const handler = documents.find((document) => document.name === '## handler');
    const calls = documents.filter((document) => document.name === 'S3');
    expect(calls.map((call) => call.aws?.operation)).toEqual(['PutObject']);
    expect(calls[0]).toMatchObject({
      type: 'subsegment',
      namespace: 'aws',
      trace_id: TRACE_ROOT,
      parent_id: handler?.id,
      // s3rver sends no x-amz-request-id, so there is no request id to record here.
      aws: { bucket_name: process.env.FILES_BUCKET_NAME, retries: 0 },
      http: { response: { status: 200 } },
    });
  });
});
