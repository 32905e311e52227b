/**
 * Per-key throttling and quotas: one API Gateway usage plan per entry of `USAGE_PLANS`, on the
 * API's stage, and the stack's shared API Gateway key in the shared plan.
 *
 * The REST API reads API keys from the authorizer (`apiKeySourceType: AUTHORIZER`): the
 * authorizer returns `usageIdentifierKey`, the value of an API Gateway API key, and API Gateway
 * applies the limits of that key's plan. Each issued key is meant to have an API Gateway key of
 * its own in a plan (created by the admin CLI); a caller whose key item carries none is counted
 * on the shared key, so the stack works before and while keys get their own.
 *
 * API Gateway key values are identifiers here, not secrets: with the key source AUTHORIZER,
 * API Gateway never reads a key from a request, so knowing a value gains a caller nothing.
 */
import { Aws, Fn } from 'aws-cdk-lib';
import { ApiKey, Period, type RestApi, type UsagePlan } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { SHARED_USAGE_PLAN, USAGE_PLANS, type UsagePlanName } from './api-gateway-settings.js';

/**
 * The value of the stack's shared API Gateway key: unique per deployed stack (its stack id's
 * UUID), known to CloudFormation before the key exists, so the authorizer's environment and the
 * key itself can both name it.
 */
export function sharedUsageKeyValue(): string {
  return Fn.join('', ['asset-registry-shared-', Fn.select(2, Fn.split('/', Aws.STACK_ID))]);
}

/** `high` → `UsagePlanHighId`: the stack output with a plan's id. */
export const usagePlanOutputId = (planName: UsagePlanName): string =>
  `UsagePlan${planName.charAt(0).toUpperCase()}${planName.slice(1)}Id`;

export interface UsagePlansProps {
  restApi: RestApi;
}

export class UsagePlans extends Construct {
  /** Each plan of `USAGE_PLANS`, by name. */
  readonly plans: ReadonlyMap<UsagePlanName, UsagePlan>;
  /** The shared key (value {@link sharedUsageKeyValue}), in the shared plan. */
  readonly sharedKey: ApiKey;

  constructor(scope: Construct, id: string, props: UsagePlansProps) {
    super(scope, id);
    const { restApi } = props;
    const plans = new Map<UsagePlanName, UsagePlan>();
    for (const [planName, plan] of Object.entries(USAGE_PLANS) as [
      UsagePlanName,
      (typeof USAGE_PLANS)[UsagePlanName],
    ][]) {
      plans.set(
        planName,
        restApi.addUsagePlan(`${planName}Plan`, {
          // The CLI finds a plan by this name among the plans of the API's stage.
          name: `${restApi.restApiName}-${planName}`,
          description: plan.description,
          throttle: { rateLimit: plan.rateLimit, burstLimit: plan.burstLimit },
          quota: { limit: plan.quota.limit, period: Period[plan.quota.period] },
          apiStages: [{ api: restApi, stage: restApi.deploymentStage }],
        }),
      );
    }
    this.plans = plans;

    this.sharedKey = new ApiKey(this, 'SharedKey', {
      apiKeyName: `${restApi.restApiName}-shared`,
      description: 'Usage identifier of callers whose key has no API Gateway key of its own',
      value: sharedUsageKeyValue(),
      enabled: true,
    });
    plans.get(SHARED_USAGE_PLAN)?.addApiKey(this.sharedKey);
  }
}
