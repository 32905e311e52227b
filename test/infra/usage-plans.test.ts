/**
 * Throttling and quotas per key: API keys come from the authorizer, every keyed method needs
 * one, each plan of the shared settings exists on the stage with its limits, the shared key sits
 * in the shared plan and is the value the authorizer falls back to, and the stage throttles
 * every method (public routes harder).
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { operationList } from '../../lambdas/operations.js';
import { STAGE_NAME } from '../../lib/api.js';
import {
  DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
  PUBLIC_ROUTE_THROTTLE,
  SHARED_USAGE_PLAN,
  STAGE_THROTTLE,
  USAGE_PLAN_GATEWAY_RESPONSES,
  USAGE_PLANS,
  type UsagePlanName,
} from '../../lib/api-gateway-settings.js';
import { usagePlanOutputId } from '../../lib/usage-plans.js';
import { resourcePaths, routesOfRows, type SynthesizedStack, synthesizeStack } from './synthesized-stack.js';

let synthesized: SynthesizedStack;
let template: Template;

beforeAll(() => {
  // Act: one synth for the whole file.
  synthesized = synthesizeStack();
  template = synthesized.template;
});

const planEntries = Object.entries(USAGE_PLANS) as [UsagePlanName, (typeof USAGE_PLANS)[UsagePlanName]][];

describe('usage plans', () => {
  it('take API keys from the authorizer', () => {
    // Assess
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it('need a key on every method behind the authorizer, and none on public routes', () => {
    // Prepare
    const paths = resourcePaths(template);
    const publicRoutes = new Set(
      routesOfRows(operationList.filter((operation) => operation.authorization === 'none')),
    );
    // Act
    // The CORS preflights (OPTIONS, served by API Gateway itself) are no operation's route.
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'))
      .map((method) => method.Properties)
      .filter((method) => method.HttpMethod !== 'OPTIONS');
    // Assess
    expect(methods).toHaveLength(routesOfRows(operationList).length);
    for (const method of methods) {
      const route = `${method.HttpMethod} ${paths.get(method.ResourceId.Ref)}`;
      expect({ route, apiKeyRequired: method.ApiKeyRequired }).toEqual({
        route,
        apiKeyRequired: !publicRoutes.has(route),
      });
    }
  });

  it.each(planEntries)('has the plan "%s" on the stage with its rate, burst and quota', (planName, plan) => {
    // Assess
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      UsagePlanName: `${synthesized.stack.stackName}-${planName}`,
      Throttle: { RateLimit: plan.rateLimit, BurstLimit: plan.burstLimit },
      Quota: { Limit: plan.quota.limit, Period: plan.quota.period },
      ApiStages: [Match.objectLike({ Stage: { Ref: Match.stringLikeRegexp('DeploymentStage') } })],
    });
    template.hasOutput(usagePlanOutputId(planName), {
      Value: { Ref: synthesized.logicalIdOf(synthesized.stack.api.usagePlans.plans.get(planName)!) },
    });
  });

  it('has exactly the plans of the shared settings', () => {
    // Assess
    template.resourceCountIs('AWS::ApiGateway::UsagePlan', planEntries.length);
  });

  it('puts the shared key in the shared plan, with the value the authorizer falls back to', () => {
    // Prepare
    const { sharedKey, plans } = synthesized.stack.api.usagePlans;
    const keyId = synthesized.logicalIdOf(sharedKey);
    const key = template.toJSON().Resources[keyId];
    const authorizer =
      template.toJSON().Resources[synthesized.logicalIdOf(synthesized.stack.api.authorizerFunction)];
    // Assess
    template.resourceCountIs('AWS::ApiGateway::ApiKey', 1);
    template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', {
      KeyId: { Ref: keyId },
      KeyType: 'API_KEY',
      UsagePlanId: { Ref: synthesized.logicalIdOf(plans.get(SHARED_USAGE_PLAN)!) },
    });
    expect(key.Properties.Enabled).toBe(true);
    // Unique per deployed stack: derived from the stack id.
    expect(JSON.stringify(key.Properties.Value)).toContain('AWS::StackId');
    expect(authorizer.Properties.Environment.Variables[DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT]).toEqual(
      key.Properties.Value,
    );
  });

  it.each(Object.entries(USAGE_PLAN_GATEWAY_RESPONSES))(
    'returns %s in the spec error format',
    (type, response) => {
      // Assess
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: String(response.statusCode),
        ResponseTemplates: {
          'application/json': JSON.stringify({
            error: response.error,
            code: response.code,
            timestamp: '$context.requestTime',
          }),
        },
      });
    },
  );
});

describe('stage throttling', () => {
  it('limits every method of the stage, and public routes harder', () => {
    // Prepare
    const escapedPath = (path: string) => `/${path.replaceAll('/', '~1')}`;
    const publicSettings = operationList
      .filter((operation) => operation.authorization === 'none')
      .map((operation) =>
        Match.objectLike({
          HttpMethod: operation.method,
          ResourcePath: escapedPath(operation.path),
          ThrottlingRateLimit: PUBLIC_ROUTE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: PUBLIC_ROUTE_THROTTLE.burstLimit,
        }),
      );
    // Assess
    expect(publicSettings.length).toBeGreaterThan(0);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: STAGE_NAME,
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: STAGE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit,
        }),
        ...publicSettings,
      ]),
    });
  });

  it('sits above every plan, so that a plan is never cut short by the stage', () => {
    // Assess
    for (const [, plan] of planEntries) {
      expect(plan.rateLimit).toBeLessThanOrEqual(STAGE_THROTTLE.rateLimit);
      expect(plan.burstLimit).toBeLessThanOrEqual(STAGE_THROTTLE.burstLimit);
    }
  });
});
