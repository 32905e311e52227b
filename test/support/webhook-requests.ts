/** Calls of the webhook handlers in process, as API Gateway would make them, for the integration tests. */
import type { CreatedWebhookView } from '../../lambdas/domain/webhooks/webhook-view';
import { handler as createWebhookHandler } from '../../lambdas/handlers/webhooks/create-webhook';
import { handler as deleteWebhookHandler } from '../../lambdas/handlers/webhooks/delete-webhook';
import { handler as getWebhookHandler } from '../../lambdas/handlers/webhooks/get-webhook';
import { handler as listDeadLettersHandler } from '../../lambdas/handlers/webhooks/list-webhook-dead-letters';
import { handler as listDeliveriesHandler } from '../../lambdas/handlers/webhooks/list-webhook-deliveries';
import { handler as listWebhooksHandler } from '../../lambdas/handlers/webhooks/list-webhooks';
import { handler as replayHandler } from '../../lambdas/handlers/webhooks/replay-webhook-dead-letters';
import { handler as retryHandler } from '../../lambdas/handlers/webhooks/retry-webhook-delivery';
import { handler as rotateHandler } from '../../lambdas/handlers/webhooks/rotate-webhook-secret';
import { handler as updateWebhookHandler } from '../../lambdas/handlers/webhooks/update-webhook';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from './api-events';

const one = (webhookId: string) => ({
  path: `/v2/webhooks/${webhookId}`,
  resource: '/v2/webhooks/{webhookId}',
  pathParameters: { webhookId },
});

export const postWebhook = (principal: Principal | undefined, body: unknown) =>
  invoke(createWebhookHandler, { method: 'POST', path: '/v2/webhooks', principal, body });

export const listWebhooks = (principal: Principal | undefined, query?: Record<string, string>) =>
  invoke(listWebhooksHandler, { method: 'GET', path: '/v2/webhooks', principal, query });

export const getWebhook = (principal: Principal | undefined, webhookId: string) =>
  invoke(getWebhookHandler, { method: 'GET', principal, ...one(webhookId) });

export const putWebhook = (principal: Principal | undefined, webhookId: string, body: unknown) =>
  invoke(updateWebhookHandler, { method: 'PUT', principal, body, ...one(webhookId) });

export const deleteWebhook = (principal: Principal | undefined, webhookId: string) =>
  invoke(deleteWebhookHandler, { method: 'DELETE', principal, ...one(webhookId) });

const below = (webhookId: string, rest: string) => ({
  path: `/v2/webhooks/${webhookId}/${rest}`,
  resource: `/v2/webhooks/{webhookId}/${rest}`,
  pathParameters: { webhookId },
});

export const rotateSecret = (principal: Principal | undefined, webhookId: string) =>
  invoke(rotateHandler, { method: 'POST', principal, ...below(webhookId, 'rotate-secret') });

export const listDeliveries = (
  principal: Principal | undefined,
  webhookId: string,
  query?: Record<string, string>,
) => invoke(listDeliveriesHandler, { method: 'GET', principal, query, ...below(webhookId, 'deliveries') });

export const listDeadLetters = (principal: Principal | undefined, webhookId: string) =>
  invoke(listDeadLettersHandler, { method: 'GET', principal, ...below(webhookId, 'dead-letters') });

export const replayDeadLetters = (principal: Principal | undefined, webhookId: string) =>
  invoke(replayHandler, { method: 'POST', principal, ...below(webhookId, 'dead-letters/replay') });

export const retryDelivery = (principal: Principal | undefined, webhookId: string, deliveryId: string) =>
  invoke(retryHandler, {
    method: 'POST',
    principal,
    path: `/v2/webhooks/${webhookId}/deliveries/${deliveryId}/retry`,
    resource: '/v2/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    pathParameters: { webhookId, deliveryId },
  });

/** Subscribes a URL and returns the created subscription with its secret; fails loudly when refused. */
export async function createWebhookOk(
  principal: Principal,
  body: Record<string, unknown>,
): Promise<CreatedWebhookView> {
  const response = await postWebhook(principal, body);
  if (response.statusCode !== 201) {
    throw new Error(`creating a webhook responded ${response.statusCode}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}
