/**
 * `POST /v2/wallets/login`: the one operation without an API key (its row says
 * `authorization: 'none'`), so there is no principal to check; the App comes from the
 * username. Everything else is the shared stack: the row's schema, the error middleware.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { loginWallet } from '#domain/wallets/wallet-login.js';
import { errorResponder } from '#shared/error-responder.js';
import { parseJsonBody, parsePart } from '#shared/http-request.js';
import { jsonResponse } from '#shared/http-response.js';
import { operations } from '../../operations.js';

const operation = operations.walletLogin;

export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(errorResponder())
  .handler(async (event) => {
    const body = parsePart(operation.body, parseJsonBody(event), 'body');
    // The token is a credential: no cache may keep it.
    return jsonResponse(operation.successStatus, await loginWallet(body), { 'Cache-Control': 'no-store' });
  });
