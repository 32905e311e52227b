/**
 * CORS in the stack: with `-c corsAllowedOrigins=...`, API Gateway answers preflights on every
 * resource (a mock, no authorizer), the gateway responses carry the allowed origin so that a
 * page can read errors, and every operation function knows the origins for its own answers.
 * Without the context there is no CORS at all.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { operationList } from '../../lambdas/operations.js';
import { CORS_ALLOWED_ORIGINS_ENVIRONMENT } from '../../lambdas/shared/cors.js';
import { functionConstructId } from '../../lib/operation-routes.js';
import { synthesizeStack } from './synthesized-stack.js';

const CONSOLE = 'https://console.example.com';
const DEVELOPER = 'http://localhost:5173';

interface Resource {
  Properties: Record<string, unknown>;
}

const methodsWith = (template: Template, httpMethod: string) =>
  Object.values(template.findResources('AWS::ApiGateway::Method') as Record<string, Resource>)
    .map((method) => method.Properties)
    .filter((method) => method.HttpMethod === httpMethod);

const gatewayResponseHeaders = (template: Template) =>
  Object.values(template.findResources('AWS::ApiGateway::GatewayResponse') as Record<string, Resource>).map(
    (response) => response.Properties.ResponseParameters as Record<string, string>,
  );

const operationEnvironments = (template: Template) =>
  Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>)
    .filter(([logicalId]) =>
      operationList.some((operation) => logicalId.includes(functionConstructId(operation.id))),
    )
    .map(([, fn]) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables);

describe('CORS, with one allowed origin (the console)', () => {
  const { template } = synthesizeStack({ corsAllowedOrigins: `${CONSOLE}/` });

  it('answers preflights on every resource with a mock: no authorizer, no key, the origin, methods and headers', () => {
    // Act
    const preflights = methodsWith(template, 'OPTIONS');
    const resources = Object.keys(template.findResources('AWS::ApiGateway::Resource'));
    // Assess: the root and every resource.
    expect(preflights).toHaveLength(resources.length + 1);
    for (const preflight of preflights) {
      expect(preflight).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
      const integration = preflight.Integration as {
        Type: string;
        IntegrationResponses: Array<{ ResponseParameters: Record<string, string> }>;
      };
      expect(integration.Type).toBe('MOCK');
      expect(integration.IntegrationResponses[0]?.ResponseParameters).toMatchObject({
        'method.response.header.Access-Control-Allow-Origin': `'${CONSOLE}'`,
        'method.response.header.Access-Control-Allow-Headers': expect.stringContaining('X-API-Key'),
        'method.response.header.Access-Control-Allow-Methods': expect.stringContaining('HEAD'),
      });
    }
  });

  it('gives every gateway response (401, 403, 404, 413, 429, 5xx) the allowed origin', () => {
    // Act / Assess
    for (const headers of gatewayResponseHeaders(template)) {
      expect(headers).toMatchObject({ 'gatewayresponse.header.Access-Control-Allow-Origin': `'${CONSOLE}'` });
    }
  });

  it('tells every operation function the allowed origins', () => {
    // Act
    const environments = operationEnvironments(template);
    // Assess
    expect(environments).toHaveLength(operationList.length);
    for (const variables of environments) expect(variables[CORS_ALLOWED_ORIGINS_ENVIRONMENT]).toBe(CONSOLE);
  });
});

describe('CORS, with several allowed origins', () => {
  const { template } = synthesizeStack({ corsAllowedOrigins: `${CONSOLE}, ${DEVELOPER}` });

  it('lets the functions pick the caller origin, and the gateway responses (errors only) allow any', () => {
    // Act / Assess
    for (const variables of operationEnvironments(template)) {
      expect(variables[CORS_ALLOWED_ORIGINS_ENVIRONMENT]).toBe(`${CONSOLE},${DEVELOPER}`);
    }
    for (const headers of gatewayResponseHeaders(template)) {
      expect(headers['gatewayresponse.header.Access-Control-Allow-Origin']).toBe("'*'");
    }
  });
});

describe('with corsAllowedOrigins set to none (the default allows the web console)', () => {
  const { template } = synthesizeStack({ corsAllowedOrigins: '' });

  it('has no preflight, no CORS header and no origins in the functions', () => {
    // Act / Assess
    expect(methodsWith(template, 'OPTIONS')).toEqual([]);
    for (const headers of gatewayResponseHeaders(template)) {
      expect(Object.keys(headers)).not.toContain('gatewayresponse.header.Access-Control-Allow-Origin');
    }
    for (const variables of operationEnvironments(template)) {
      expect(variables).not.toHaveProperty(CORS_ALLOWED_ORIGINS_ENVIRONMENT);
    }
  });
});
