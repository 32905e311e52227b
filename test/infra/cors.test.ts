/**
 * CORS in the stack: with `-c corsAllowedOrigins=...`, API Gateway responds to preflights on every
 * resource (a mock, no authorizer), the gateway responses carry the allowed origin so that a
 * page can read errors, and every operation function knows the origins for its own responses.
 * Without the context there is no CORS at all.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { CORS_ALLOWED_ORIGINS_ENVIRONMENT } from '../../lambdas/http/cors.js';
import { operationList } from '../../lambdas/operations.js';
import { functionConstructId } from '../../lib/operation-routes.js';
import { type SynthesizedStack, synthesizeStack } from './synthesized-stack.js';

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

/** The environment of every operation's function, found by its own logical id (in its nested stack). */
const operationEnvironments = ({ template, stack, logicalIdOf }: SynthesizedStack) => {
  const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
  return operationList.map((operation) => {
    const operationFunction = stack.api.operationFunctions.get(operation.id)!;
    const logicalId = logicalIdOf(operationFunction);
    // The construct id follows the row's id (the job that exports has a function of its own).
    expect(logicalId.startsWith(functionConstructId(operation.id))).toBe(true);
    return (functions[logicalId]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  });
};

describe('CORS, with one allowed origin (the console)', () => {
  const synthesized = synthesizeStack({ corsAllowedOrigins: `${CONSOLE}/` });
  const { template } = synthesized;

  it('responds to preflights on every resource with a mock: no authorizer, no key, the origin, methods and headers', () => {
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
    const environments = operationEnvironments(synthesized);
    // Assess
    expect(environments).toHaveLength(operationList.length);
    for (const variables of environments) expect(variables[CORS_ALLOWED_ORIGINS_ENVIRONMENT]).toBe(CONSOLE);
  });
});

describe('CORS, with several allowed origins', () => {
  const synthesized = synthesizeStack({ corsAllowedOrigins: `${CONSOLE}, ${DEVELOPER}` });
  const { template } = synthesized;

  it('lets the functions pick the caller origin, and the gateway responses (errors only) allow any', () => {
    // Act / Assess
    for (const variables of operationEnvironments(synthesized)) {
      expect(variables[CORS_ALLOWED_ORIGINS_ENVIRONMENT]).toBe(`${CONSOLE},${DEVELOPER}`);
    }
    for (const headers of gatewayResponseHeaders(template)) {
      expect(headers['gatewayresponse.header.Access-Control-Allow-Origin']).toBe("'*'");
    }
  });
});

describe('with corsAllowedOrigins set to none (the default allows the web console)', () => {
  const synthesized = synthesizeStack({ corsAllowedOrigins: '' });
  const { template } = synthesized;

  it('has no preflight, no CORS header and no origins in the functions', () => {
    // Act / Assess
    expect(methodsWith(template, 'OPTIONS')).toEqual([]);
    for (const headers of gatewayResponseHeaders(template)) {
      expect(Object.keys(headers)).not.toContain('gatewayresponse.header.Access-Control-Allow-Origin');
    }
    for (const variables of operationEnvironments(synthesized)) {
      expect(variables).not.toHaveProperty(CORS_ALLOWED_ORIGINS_ENVIRONMENT);
    }
  });
});
