/**
 * middy middleware: the one place that turns a thrown error into the spec's error body
 * `{ error, code, timestamp }` (+ `validationErrors` or, for subcategory operations, `details`).
 * Anything that is not an {@link ApiError} is a bug or an outage: it is logged, and the
 * response is a plain 500 that reveals nothing of the cause.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, type FieldIssue, ValidationError } from '#shared/errors.js';
import { jsonResponse } from './http-response.js';

export interface ErrorResponderOptions {
  /** `details` groups messages by field (subcategory operations); the default lists issues. */
  errorFormat?: 'validationErrors' | 'details';
  log?: (line: Record<string, unknown>) => void;
  /** Told the status of every error response (for metrics). */
  onResponse?: (statusCode: number) => void;
}

const defaults: Required<ErrorResponderOptions> = {
  errorFormat: 'validationErrors',
  log: (line) => console.error(JSON.stringify(line)),
  onResponse: () => undefined,
};

function issuesByField(issues: FieldIssue[]): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of issues) (details[issue.field] ??= []).push(issue.message);
  return details;
}

/** The spec's error body for an error. */
export function errorBody(
  error: ApiError,
  errorFormat: ErrorResponderOptions['errorFormat'],
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    error: error.message,
    code: error.code,
    timestamp: new Date().toISOString(),
  };
  if (error instanceof ValidationError) {
    if (errorFormat === 'details') body.details = issuesByField(error.issues);
    else body.validationErrors = error.issues;
  }
  return body;
}

export const errorResponder = (
  options: ErrorResponderOptions = {},
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const { errorFormat, log, onResponse } = { ...defaults, ...options };
  return {
    onError: async (request) => {
      const { error } = request;
      if (error instanceof ApiError) {
        request.response = jsonResponse(error.statusCode, errorBody(error, errorFormat), error.headers);
        onResponse(error.statusCode);
        return;
      }
      // Only the error's class, message and stack: never the event, which carries the API key.
      log({
        level: 'ERROR',
        message: 'Unhandled error',
        requestId: request.context?.awsRequestId,
        errorName: error?.name,
        errorMessage: error?.message,
        stack: error?.stack,
      });
      onResponse(500);
      request.response = jsonResponse(500, {
        error: 'Internal server error',
        code: 'INTERNAL_ERROR',
        timestamp: new Date().toISOString(),
      });
    },
  };
};
