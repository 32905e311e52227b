/** Rows of the operation table (`lambdas/operations.ts`): webhook subscriptions and deliveries (extension). */
import {
  ALL_EVENTS,
  createWebhookBody,
  listDeliveriesQuery,
  listWebhooksQuery,
  updateWebhookBody,
  webhookDeliveryPath,
  webhookIdPath,
} from '#domain/webhooks/webhook-schemas.js';
import {
  type ConditionalPermissions,
  companyOperation,
  type Operation,
  type RequestParts,
  withIds,
} from '../operation-row.js';

/**
 * A delivery carries the event's data (ids, changed fields): a subscription reads what its
 * events are about, so it needs the read permission of each kind of event it receives, as the
 * lists of that data do. `events` of the request (create: `["*"]` by default); an update that
 * sends a new `url` without `events` sends every kind (the stored list is not read here).
 */
const receives =
  (prefix: string) =>
  ({ body }: RequestParts): boolean => {
    const events =
      (body.events as readonly string[] | undefined) ?? (body.url === undefined ? [] : [ALL_EVENTS]);
    return events.some((type) => type === ALL_EVENTS || type.startsWith(prefix));
  };

const eventReads = {
  objectEvents: {
    when: 'a subscription to object events (object.*, or "*")',
    permissions: ['objects:read'],
    appliesTo: receives('object.'),
  },
  fileEvents: {
    when: 'a subscription to file events (file.*, or "*")',
    permissions: ['files:read'],
    appliesTo: receives('file.'),
  },
  subcategoryEvents: {
    when: 'a subscription to subcategory events (subcategory.*, or "*")',
    permissions: ['categories:read'],
    appliesTo: receives('subcategory.'),
  },
} as const satisfies Record<string, ConditionalPermissions>;

export const webhookOperations = withIds({
  listWebhooks: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks',
    handler: 'webhooks/list-webhooks',
    access: { table: ['Query'] },
    summary: "List the company's webhook subscriptions, newest first (extension)",
    permission: 'webhooks:read',
    query: listWebhooksQuery,
    successStatus: 200,
  },
  createWebhook: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks',
    handler: 'webhooks/create-webhook',
    access: { table: ['PutItem'], secrets: ['Encrypt'] },
    summary: 'Subscribe a URL to ledger events; the response shows the signing secret, once (extension)',
    permission: 'webhooks:write',
    conditionalPermissions: eventReads,
    body: createWebhookBody,
    // Not idempotent: the idempotency record would keep the response, and so the secret, in clear.
    responseHasCredential: true,
    successStatus: 201,
  },
  getWebhook: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks/{webhookId}',
    handler: 'webhooks/get-webhook',
    access: { table: ['GetItem'] },
    summary: 'Get one webhook subscription (extension)',
    permission: 'webhooks:read',
    pathParameters: webhookIdPath,
    successStatus: 200,
  },
  updateWebhook: {
    ...companyOperation,
    method: 'PUT',
    path: '/v2/webhooks/{webhookId}',
    handler: 'webhooks/update-webhook',
    access: { table: ['GetItem', 'PutItem'] },
    summary: 'Change a webhook subscription: url, events, description, status (extension)',
    permission: 'webhooks:write',
    conditionalPermissions: eventReads,
    pathParameters: webhookIdPath,
    body: updateWebhookBody,
    successStatus: 200,
  },
  deleteWebhook: {
    ...companyOperation,
    method: 'DELETE',
    path: '/v2/webhooks/{webhookId}',
    handler: 'webhooks/delete-webhook',
    access: { table: ['GetItem', 'DeleteItem'] },
    summary: 'Delete a webhook subscription (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    successStatus: 204,
  },
  rotateWebhookSecret: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks/{webhookId}/rotate-secret',
    handler: 'webhooks/rotate-webhook-secret',
    access: { table: ['GetItem', 'PutItem'], secrets: ['Encrypt'] },
    summary: 'A new signing secret, shown once; the previous one keeps signing for 24 h (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    responseHasCredential: true,
    successStatus: 200,
  },
  listWebhookDeliveries: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks/{webhookId}/deliveries',
    handler: 'webhooks/list-webhook-deliveries',
    access: { table: ['GetItem'], indexes: ['gsi1'] },
    summary: "A webhook's deliveries, newest first, with every attempt (extension)",
    permission: 'webhooks:read',
    pathParameters: webhookIdPath,
    query: listDeliveriesQuery,
    successStatus: 200,
  },
  retryWebhookDelivery: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    handler: 'webhooks/retry-webhook-delivery',
    access: { table: ['GetItem', 'PutItem'], deliveryQueue: ['SendMessage'] },
    summary: 'Send a delivery once more, queued behind its lane (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookDeliveryPath,
    successStatus: 202,
  },
  listWebhookDeadLetters: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks/{webhookId}/dead-letters',
    handler: 'webhooks/list-webhook-dead-letters',
    access: { table: ['GetItem'], indexes: ['gsi2'] },
    summary: "A webhook's dead-letter store: deliveries that failed for 24 h, newest first (extension)",
    permission: 'webhooks:read',
    pathParameters: webhookIdPath,
    query: listDeliveriesQuery,
    successStatus: 200,
  },
  replayWebhookDeadLetters: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks/{webhookId}/dead-letters/replay',
    handler: 'webhooks/replay-webhook-dead-letters',
    access: { table: ['GetItem', 'PutItem'], indexes: ['gsi2'], deliveryQueue: ['SendMessage'] },
    summary: 'Queue the dead letters again, oldest first, and make a failing webhook active (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    successStatus: 202,
  },
} as const satisfies Record<string, Operation>);
