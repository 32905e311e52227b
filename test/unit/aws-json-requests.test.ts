/**
 * The service's own KMS, SQS and Lambda requests (`lambdas/shared/aws-json-requests.ts`) against
 * the SDK clients', the reference: what the sealing of a webhook secret, the delivery queue and
 * a background job send must be the request the SDK signs for the same call, header for header,
 * byte for byte, signature included (`test/support/signed-requests.ts`; no network); and so in
 * one region of every partition of the SDK's table, with FIPS, dual-stack and configured
 * endpoint URLs (`lambdas/shared/aws-endpoints.ts`). And the errors these services write are
 * read as the SDK reads them.
 */
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { partition } from '@aws-sdk/core/client';
import type { QueuedDelivery } from '../../lambdas/repositories/delivery-message';
import {
  type EndpointCase,
  endpointCases,
  ourRequest as firstRequest,
  freezeClockInEachTest,
  inEndpointCase,
  type Outcome,
  ourOutcome,
  sdkCapture,
  useLambdaRoleEnvironment,
  type WireRequest,
} from '../support/signed-requests';

const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/asset-registry-webhooks.fifo';
const JOB_FUNCTION = 'arn:aws:lambda:eu-west-1:111122223333:function:asset-registry-ImportObjects-AbC123';
const CONTEXT = { companyId: '3b0d6a52-8f5e-4c1a-9f0e-6a1d2c3b4e5f', webhookId: 'b6a1c2d3' };

const capture = sdkCapture();
const kms = capture.watch(new KMSClient(capture.options));
const sqs = capture.watch(new SQSClient(capture.options));
const lambda = capture.watch(new LambdaClient(capture.options));

let aws: typeof import('../../lambdas/shared/aws-requests.js');
let json: typeof import('../../lambdas/shared/aws-json-requests.js');
let secretBox: typeof import('../../lambdas/shared/secret-box.js');
let deliveryQueue: typeof import('../../lambdas/repositories/delivery-queue.js');
let backgroundJobs: typeof import('../../lambdas/shared/background-jobs.js');

const ourRequest = (act: () => Promise<unknown>) => firstRequest(aws, act);

/** An import job started by the SDK's Invoke and by the service, as signed. */
const bothJobStarts = async (payload: {
  companyId: string;
  jobId: string;
}): Promise<[WireRequest, WireRequest]> => [
  await capture.request(
    lambda,
    new InvokeCommand({
      FunctionName: JOB_FUNCTION,
      InvocationType: 'Event',
      Payload: Buffer.from(JSON.stringify(payload)),
    }),
  ),
  await ourRequest(() => backgroundJobs.startBackgroundJob('importObjects', payload)),
];

beforeAll(async () => {
  useLambdaRoleEnvironment();
  delete process.env.LOCAL_BACKGROUND_JOBS;
  process.env.SECRETS_KEY_ID = KEY_ARN;
  process.env.WEBHOOK_QUEUE_URL = QUEUE_URL;
  process.env.IMPORT_OBJECTS_FUNCTION_NAME = JOB_FUNCTION;
  aws = await import('../../lambdas/shared/aws-requests.js');
  json = await import('../../lambdas/shared/aws-json-requests.js');
  secretBox = await import('../../lambdas/shared/secret-box.js');
  deliveryQueue = await import('../../lambdas/repositories/delivery-queue.js');
  backgroundJobs = await import('../../lambdas/shared/background-jobs.js');
});
freezeClockInEachTest();

describe('KMS, SQS and Lambda requests are the SDK requests, signature included', () => {
  it('KMS Encrypt, sealing a webhook secret for its owner', async () => {
    // Prepare
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    // Act
    const sdkSigned = await capture.request(
      kms,
      new EncryptCommand({
        KeyId: KEY_ARN,
        Plaintext: Buffer.from(secret, 'utf8'),
        EncryptionContext: CONTEXT,
      }),
    );
    const ourSigned = await ourRequest(() => secretBox.sealSecret(secret, CONTEXT));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
    expect(ourSigned.headers['x-amz-target']).toBe('TrentService.Encrypt');
  });

  it('KMS Decrypt, opening it', async () => {
    // Prepare
    const ciphertext = Buffer.from('sealed by KMS \u0000\u00ff');
    // Act
    const sdkSigned = await capture.request(
      kms,
      new DecryptCommand({ CiphertextBlob: ciphertext, EncryptionContext: CONTEXT }),
    );
    const ourSigned = await ourRequest(() =>
      secretBox.openSecret(`kms:${ciphertext.toString('base64')}`, CONTEXT),
    );
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('SQS SendMessageBatch, queueing deliveries in their lanes', async () => {
    // Prepare
    const deliveries = [0, 1].map(
      (index): QueuedDelivery => ({
        message: { deliveryId: `d-${index}` } as unknown as QueuedDelivery['message'],
        lane: `b6a1c2d3#${index}`,
        deduplicationId: `dedup-${index}`,
      }),
    );
    // Act
    const sdkSigned = await capture.request(
      sqs,
      new SendMessageBatchCommand({
        QueueUrl: QUEUE_URL,
        Entries: deliveries.map((delivery, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(delivery.message),
          MessageGroupId: delivery.lane,
          MessageDeduplicationId: delivery.deduplicationId,
        })),
      }),
    );
    const ourSigned = await ourRequest(() => deliveryQueue.enqueueDeliveries(deliveries));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('SQS ChangeMessageVisibility, holding a message back for its retry', async () => {
    // Act
    const sdkSigned = await capture.request(
      sqs,
      new ChangeMessageVisibilityCommand({
        QueueUrl: QUEUE_URL,
        ReceiptHandle: 'AQEB+handle/==',
        VisibilityTimeout: 30,
      }),
    );
    const ourSigned = await ourRequest(() => deliveryQueue.retryMessageLater('AQEB+handle/==', 29.2));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('Lambda Invoke, asynchronous, starting a background job by its function ARN', async () => {
    // Prepare
    const payload = { companyId: CONTEXT.companyId, jobId: 'job-1' };
    // Act
    const [sdkSigned, ourSigned] = await bothJobStarts(payload);
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });
});

/** A queue's URL in the region's partition, as CloudFormation gives it. */
const queueUrlIn = (region: string) =>
  `https://sqs.${region}.${partition(region).dnsSuffix}/111122223333/asset-registry-webhooks.fifo`;

/** The SQS client warns when it sends to the queue URL's host instead of its own endpoint. */
const QUIET = { debug() {}, info() {}, warn() {}, error() {} };

type Capture = ReturnType<typeof sdkCapture>;

/** One call of each service: what its SDK client signs for it, and what the service sends. */
const CALLS: Record<
  string,
  { sdk: (capture: Capture, region: string) => Promise<Outcome>; ours: () => Promise<unknown> }
> = {
  KMS: {
    sdk: (captureInCase) =>
      captureInCase.outcome(
        captureInCase.watch(new KMSClient(captureInCase.options)),
        new EncryptCommand({ KeyId: KEY_ARN, Plaintext: Buffer.from('whsec_1'), EncryptionContext: CONTEXT }),
      ),
    ours: () => secretBox.sealSecret('whsec_1', CONTEXT),
  },
  SQS: {
    sdk: (captureInCase, region) =>
      captureInCase.outcome(
        captureInCase.watch(new SQSClient({ ...captureInCase.options, logger: QUIET })),
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrlIn(region),
          ReceiptHandle: 'AQEB+handle/==',
          VisibilityTimeout: 30,
        }),
      ),
    ours: () => deliveryQueue.retryMessageLater('AQEB+handle/==', 30),
  },
  Lambda: {
    sdk: (captureInCase) =>
      captureInCase.outcome(
        captureInCase.watch(new LambdaClient(captureInCase.options)),
        new InvokeCommand({
          FunctionName: JOB_FUNCTION,
          InvocationType: 'Event',
          Payload: Buffer.from(JSON.stringify({ companyId: CONTEXT.companyId, jobId: 'job-3' })),
        }),
      ),
    ours: () =>
      backgroundJobs.startBackgroundJob('importObjects', { companyId: CONTEXT.companyId, jobId: 'job-3' }),
  },
};

/** The cases every SDK client refuses: FIPS or dual-stack with an endpoint URL. */
const refused = (endpointCase: EndpointCase) => / with (FIPS|dual-stack)/.test(endpointCase.name);

describe.each(Object.keys(CALLS))('%s requests go where its SDK client sends them', (serviceId) => {
  it.each(endpointCases(serviceId).map((endpointCase) => [endpointCase.name, endpointCase] as const))(
    '%s',
    (_name, endpointCase) =>
      inEndpointCase(endpointCase, async () => {
        // Prepare: a client created now reads the settings, as one created at a cold start does.
        const call = CALLS[serviceId] as (typeof CALLS)[string];
        process.env.WEBHOOK_QUEUE_URL = queueUrlIn(endpointCase.region);
        // Act
        const sdkSigned = await call.sdk(sdkCapture(endpointCase.region), endpointCase.region);
        const ourSigned = await ourOutcome(aws, call.ours);
        // Assess
        expect(ourSigned).toEqual(sdkSigned);
        expect('error' in ourSigned).toBe(refused(endpointCase));
      }),
  );
});

describe('SQS', () => {
  it("sends to the queue URL's origin, port included, as its SDK client does", async () => {
    // Prepare
    const localQueue = 'http://127.0.0.1:9324/000000000000/asset-registry-webhooks.fifo';
    process.env.WEBHOOK_QUEUE_URL = localQueue;
    try {
      // Act
      const sdkSigned = await capture.request(
        capture.watch(new SQSClient({ ...capture.options, logger: QUIET })),
        new ChangeMessageVisibilityCommand({
          QueueUrl: localQueue,
          ReceiptHandle: 'h',
          VisibilityTimeout: 30,
        }),
      );
      const ourSigned = await ourRequest(() => deliveryQueue.retryMessageLater('h', 30));
      // Assess
      expect(ourSigned).toEqual(sdkSigned);
      expect(ourSigned.headers.host).toBe('127.0.0.1:9324');
    } finally {
      process.env.WEBHOOK_QUEUE_URL = QUEUE_URL;
    }
  });
});

describe('inside a Lambda invocation', () => {
  it('passes the X-Ray trace header on, as the SDK does, so that a started job joins the trace', async () => {
    // Prepare
    const traceId = 'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1';
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'asset-registry-CreateImport';
    process.env._X_AMZN_TRACE_ID = traceId;
    const payload = { companyId: CONTEXT.companyId, jobId: 'job-2' };
    try {
      // Act
      const [sdkSigned, ourSigned] = await bothJobStarts(payload);
      // Assess
      expect(ourSigned.headers['x-amzn-trace-id']).toBe(traceId);
      expect(ourSigned).toEqual(sdkSigned);
    } finally {
      delete process.env.AWS_LAMBDA_FUNCTION_NAME;
      delete process.env._X_AMZN_TRACE_ID;
    }
  });
});

describe('errors of JSON services', () => {
  it.each([
    [
      'KMS, by __type',
      {},
      '{"__type":"com.amazonaws.kms#InvalidCiphertextException","message":"bad ciphertext"}',
      'InvalidCiphertextException',
      'bad ciphertext',
    ],
    [
      'SQS, by x-amzn-errortype',
      { 'x-amzn-errortype': 'AWS.SimpleQueueService.NonExistentQueue:http://internal.amazon.com/' },
      '{"__type":"com.amazonaws.sqs#QueueDoesNotExist","message":"The specified queue does not exist."}',
      'AWS.SimpleQueueService.NonExistentQueue',
      'The specified queue does not exist.',
    ],
    [
      'Lambda, with Message',
      {},
      '{"Type":"User","Message":"Function not found","code":"ResourceNotFoundException"}',
      'ResourceNotFoundException',
      'Function not found',
    ],
    ['anything not JSON', {}, '<html>Bad gateway</html>', 'Http502', 'no message'],
  ])('%s', (_case, headers, text, code, message) => {
    // Act
    const read = json.jsonError(502, headers, text);
    // Assess
    expect(read).toEqual({ code, message });
  });
});
