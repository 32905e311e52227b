/**
 * API Gateway usage plans for API keys (AWS only; local mode has no usage plans and only
 * records the plan's name). Each of our keys gets an API Gateway API key of its own, which the
 * authorizer names as `usageIdentifierKey`; that API Gateway key's plan throttles the caller.
 * So does each App's wallets: one API Gateway key per App (`asset-registry-wallets-<appId>`),
 * named by every session of its wallets (see `lambdas/repositories/app-usage-repository.ts`).
 */
import { randomBytes } from 'node:crypto';
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetUsagePlansCommand,
} from '@aws-sdk/client-api-gateway';
import { USAGE_PLANS, type UsagePlanName } from '../lib/api-gateway-settings.js';

export const USAGE_PLAN_NAMES = Object.keys(USAGE_PLANS) as UsagePlanName[];

export interface UsageKey {
  usageIdentifierKey: string;
  usageKeyId: string;
}

export class UsagePlans {
  private readonly client = new APIGatewayClient({});

  constructor(
    private readonly restApiId: string,
    private readonly stage: string,
  ) {}

  /** The id of the named plan among the plans of this API's stage (plans are named `<api>-<plan>`). */
  private async planId(plan: UsagePlanName): Promise<string> {
    let position: string | undefined;
    do {
      const page = await this.client.send(new GetUsagePlansCommand({ position, limit: 100 }));
      const found = page.items?.find(
        (item) =>
          item.name?.endsWith(`-${plan}`) &&
          item.apiStages?.some((stage) => stage.apiId === this.restApiId && stage.stage === this.stage),
      );
      if (found?.id) return found.id;
      position = page.position;
    } while (position);
    throw new Error(`No usage plan "${plan}" on API ${this.restApiId} stage ${this.stage}`);
  }

  /** Creates the API Gateway key of one of our keys and puts it on a plan. */
  async createUsageKey(keyId: string, plan: UsagePlanName): Promise<UsageKey> {
    const value = `ark-usage-${randomBytes(24).toString('base64url')}`;
    const created = await this.client.send(
      new CreateApiKeyCommand({ name: `asset-registry-${keyId}`, enabled: true, value }),
    );
    if (!created.id) throw new Error('API Gateway returned no key id');
    try {
      await this.client.send(
        new CreateUsagePlanKeyCommand({
          usagePlanId: await this.planId(plan),
          keyId: created.id,
          keyType: 'API_KEY',
        }),
      );
    } catch (error) {
      await this.client.send(new DeleteApiKeyCommand({ apiKey: created.id }));
      throw error;
    }
    return { usageIdentifierKey: value, usageKeyId: created.id };
  }

  /** Moves an API Gateway key from one plan to another. */
  async movePlan(usageKeyId: string, from: UsagePlanName | undefined, to: UsagePlanName): Promise<void> {
    if (from && from !== to) {
      try {
        await this.client.send(
          new DeleteUsagePlanKeyCommand({ usagePlanId: await this.planId(from), keyId: usageKeyId }),
        );
      } catch (error) {
        if ((error as Error).name !== 'NotFoundException') throw error;
      }
    }
    if (from !== to) {
      await this.client.send(
        new CreateUsagePlanKeyCommand({
          usagePlanId: await this.planId(to),
          keyId: usageKeyId,
          keyType: 'API_KEY',
        }),
      );
    }
  }

  async deleteUsageKey(usageKeyId: string): Promise<void> {
    await this.client.send(new DeleteApiKeyCommand({ apiKey: usageKeyId }));
  }
}
