/** The one middleware that turns thrown errors into the spec's error bodies (section 7). */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { errorBody, errorResponder } from '../../lambdas/http/error-responder';
import {
  ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../lambdas/shared/errors';
import { proxyEvent } from '../support/api-events';

const NOW = '2025-03-04T05:06:07.089Z';
const context = { awsRequestId: 'request-1' } as Context;
const event = proxyEvent({ method: 'GET', path: '/v2/categories', headers: { 'X-API-Key': 'ark_secret' } });

/** A handler that throws `error`, behind the error responder. */
function throwing(error: unknown, options: Parameters<typeof errorResponder>[0] = {}) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(errorResponder({ log: () => undefined, ...options }))
    .handler(async () => {
      throw error;
    });
}

async function run(error: unknown, options: Parameters<typeof errorResponder>[0] = {}) {
  const result = await throwing(error, options)(event, context);
  return { ...result, parsed: JSON.parse(result.body) as Record<string, unknown> };
}

describe('errorResponder', () => {
  beforeEach(() => {
    // Only Date: middy and the handlers use no timers here.
    jest.useFakeTimers({ now: new Date(NOW), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('turns an ApiError into its status and { error, code, timestamp }', async () => {
    // Act
    const result = await run(new NotFoundError('CATEGORY_NOT_FOUND', 'No category 42 in this company'));
    // Assess
    expect(result.statusCode).toBe(404);
    expect(result.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8' });
    expect(result.parsed).toEqual({
      error: 'No category 42 in this company',
      code: 'CATEGORY_NOT_FOUND',
      timestamp: NOW,
    });
  });

  it('writes the timestamp as ISO 8601 in UTC', async () => {
    // Prepare
    jest.useRealTimers();
    // Act
    const { parsed } = await run(new UnauthorizedError());
    // Assess
    const timestamp = parsed.timestamp as string;
    expect(timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(timestamp).toISOString()).toBe(timestamp);
    expect(parsed).toEqual({ error: 'Missing or invalid credentials', code: 'UNAUTHORIZED', timestamp });
  });

  it('adds validationErrors for a ValidationError', async () => {
    // Prepare
    const issues = [
      { field: 'name', code: 'REQUIRED', message: 'name is required' },
      { field: 'status', code: 'ENUM_INVALID', message: 'status must be one of: a, b' },
    ];
    // Act
    const result = await run(new ValidationError(issues));
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.parsed).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: NOW,
      validationErrors: issues,
    });
  });

  it("groups messages by field in details with errorFormat 'details'", async () => {
    // Prepare
    const issues = [
      { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
      { field: 'description', code: 'TYPE_INVALID', message: 'description must be a string, not number' },
      { field: 'name', code: 'FORMAT_INVALID', message: 'name has a bad form' },
    ];
    // Act
    const result = await run(new ValidationError(issues), { errorFormat: 'details' });
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.parsed).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: NOW,
      details: {
        name: ['name must be 2 to 100 characters long', 'name has a bad form'],
        description: ['description must be a string, not number'],
      },
    });
  });

  it('adds neither validationErrors nor details to other errors', async () => {
    // Act
    const result = await run(new ConflictError('CATEGORY_NAME_EXISTS', 'taken'), { errorFormat: 'details' });
    // Assess
    expect(Object.keys(result.parsed).sort()).toEqual(['code', 'error', 'timestamp']);
  });

  it('responds to an unknown error with 500 INTERNAL_ERROR without its message', async () => {
    // Prepare
    const secret = 'connect ECONNREFUSED table asset-registry key ark_0123';
    // Act
    const result = await run(new Error(secret));
    // Assess
    expect(result.statusCode).toBe(500);
    expect(result.parsed).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR', timestamp: NOW });
    expect(result.body).not.toContain('ECONNREFUSED');
  });

  it('responds to a thrown non-Error value with 500 INTERNAL_ERROR', async () => {
    // Act
    const result = await run('a plain string');
    // Assess
    expect(result.statusCode).toBe(500);
    expect(result.parsed.code).toBe('INTERNAL_ERROR');
  });

  it('logs an unknown error with the request id and without the event (which holds the key)', async () => {
    // Prepare
    const lines: Record<string, unknown>[] = [];
    const failure = new TypeError('boom');
    // Act
    await run(failure, { log: (line) => lines.push(line) });
    // Assess
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: 'ERROR',
      message: 'Unhandled error',
      requestId: 'request-1',
      errorName: 'TypeError',
      errorMessage: 'boom',
      stack: failure.stack,
    });
    expect(JSON.stringify(lines)).not.toContain('ark_secret');
  });

  it('does not log ApiErrors, which are responses, not faults', async () => {
    // Prepare
    const log = jest.fn();
    // Act
    await run(new ForbiddenError('COMPANY_ACCESS_DENIED', 'no'), { log });
    // Assess
    expect(log).not.toHaveBeenCalled();
  });
});

describe('typed errors', () => {
  it.each([
    ['ValidationError', new ValidationError([]), 400, 'VALIDATION_ERROR'],
    ['BadRequestError', new BadRequestError('INVALID_ACTION', 'm'), 400, 'INVALID_ACTION'],
    ['UnauthorizedError', new UnauthorizedError(), 401, 'UNAUTHORIZED'],
    ['ForbiddenError', new ForbiddenError('COMPANY_ACCESS_DENIED', 'm'), 403, 'COMPANY_ACCESS_DENIED'],
    ['NotFoundError', new NotFoundError('CATEGORY_NOT_FOUND', 'm'), 404, 'CATEGORY_NOT_FOUND'],
    ['ConflictError', new ConflictError('CATEGORY_NAME_EXISTS', 'm'), 409, 'CATEGORY_NAME_EXISTS'],
    ['PayloadTooLargeError', new PayloadTooLargeError('FILE_TOO_LARGE', 'm'), 413, 'FILE_TOO_LARGE'],
    [
      'UnsupportedMediaTypeError',
      new UnsupportedMediaTypeError('UNSUPPORTED_FILE_TYPE', 'm'),
      415,
      'UNSUPPORTED_FILE_TYPE',
    ],
  ])('%s carries status %d and code %s, and its class name', (className, error, statusCode, code) => {
    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error.statusCode).toBe(statusCode);
    expect(error.code).toBe(code);
    expect(error.name).toBe(className);
  });

  it('errorBody gives validationErrors by default', () => {
    // Prepare
    const issues = [{ field: 'a', code: 'REQUIRED', message: 'a is required' }];
    // Act
    const body = errorBody(new ValidationError(issues, 'Bad'), undefined);
    // Assess
    expect(body).toEqual({
      error: 'Bad',
      code: 'VALIDATION_ERROR',
      timestamp: expect.any(String),
      validationErrors: issues,
    });
  });
});
