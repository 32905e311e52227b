/**
 * The bench cases of the webhook operations (one per row, as `operation-cases.ts` has for the
 * others). Subscriptions point at a closed loopback port: nothing is delivered in this section.
 */
import { randomUUID } from 'node:crypto';
import { deliveryIdOf } from '../../lambdas/domain/webhooks/webhook-deliveries';
import { type OperationId, operations } from '../../lambdas/operations';
import { insertDelivery } from '../../lambdas/repositories/webhook-repository';
import type { Tenant } from '../support/fixtures';
import { invokeExpecting } from '../support/handler-calls';
import type { WebhookCaseKey } from '../webhook-operation-minimums';
import type { CaseWorld, OperationCaseOf } from './operation-cases';

const withId = <K extends OperationId>(id: K) => operations[id];
const UNUSED_URL = 'http://127.0.0.1:9/bench';

async function givenWebhook(company: Tenant): Promise<string> {
  const response = await invokeExpecting(withId('createWebhook'), {
    principal: company.principal,
    body: { url: UNUSED_URL },
  });
  return response.body.id as string;
}

/** A delivery record of the webhook, as the publisher would have written it. */
async function givenDelivery(
  company: Tenant,
  webhookId: string,
  status: 'succeeded' | 'failed',
): Promise<string> {
  const entityId = randomUUID();
  const chainId = `object:${company.tenantId}:${entityId}`;
  const id = deliveryIdOf(webhookId, chainId, 1);
  await insertDelivery({
    id,
    companyId: company.tenantId,
    webhookId,
    eventType: 'object.created',
    entityId,
    sequence: 1,
    chainId,
    status,
    createdAt: new Date().toISOString(),
    firstAttemptAt: null,
    nextAttemptAt: null,
    attempts: [],
  });
  return id;
}

const onWebhook = (fixture: string): OperationCaseOf => ({
  fixture,
  async prepare({ company }: CaseWorld) {
    const webhookId = await givenWebhook(company);
    await givenDelivery(company, webhookId, 'succeeded');
    return { request: () => ({ principal: company.principal, pathParameters: { webhookId } }) };
  },
});

export const webhookOperationCases: Record<WebhookCaseKey, OperationCaseOf> = {
  listWebhooks: {
    fixture: "the company's subscriptions (one per other webhook case)",
    async prepare({ company }) {
      await givenWebhook(company);
      return { request: () => ({ principal: company.principal }) };
    },
  },
  createWebhook: {
    fixture: 'a loopback URL (an IP literal: no DNS lookup)',
    async prepare({ company }) {
      return { request: () => ({ principal: company.principal, body: { url: UNUSED_URL } }) };
    },
  },
  getWebhook: onWebhook('a subscription'),
  updateWebhook: {
    fixture: 'a new description each run',
    async prepare({ company }) {
      const webhookId = await givenWebhook(company);
      return {
        request: (run) => ({
          principal: company.principal,
          pathParameters: { webhookId },
          body: { description: `run ${run}` },
        }),
      };
    },
  },
  deleteWebhook: {
    fixture: 'a new subscription each run (created untimed)',
    async prepare({ company }) {
      return {
        request: async () => ({
          principal: company.principal,
          pathParameters: { webhookId: await givenWebhook(company) },
        }),
      };
    },
  },
  rotateWebhookSecret: onWebhook('a subscription'),
  listWebhookDeliveries: onWebhook('a subscription with one delivery'),
  retryWebhookDelivery: {
    fixture: 'a delivery that succeeded',
    async prepare({ company }) {
      const webhookId = await givenWebhook(company);
      const deliveryId = await givenDelivery(company, webhookId, 'succeeded');
      return { request: () => ({ principal: company.principal, pathParameters: { webhookId, deliveryId } }) };
    },
  },
  listWebhookDeadLetters: onWebhook('a subscription without dead letters'),
  replayWebhookDeadLetters: onWebhook('a subscription without dead letters'),
};
