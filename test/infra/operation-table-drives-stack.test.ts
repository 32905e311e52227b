/**
 * The operation table alone decides the routes and functions: a row added to it (here by a
 * mock, pointing at an existing handler module) appears in the stack with no stack change.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import type { Operation } from '../../lambdas/operation-row.js';
import { type OperationId, operationList, operations } from '../../lambdas/operations.js';
import {
  actionsOf,
  resourcePaths,
  routesOfRows,
  type SynthesizedStack,
  statementsOfRole,
  synthesizeStack,
} from './synthesized-stack.js';

jest.mock('../../lambdas/operations.js', () => {
  const actual = jest.requireActual('../../lambdas/operations.js');
  const extraRow: Operation & { id: string } = {
    id: 'archiveProbeItem',
    method: 'DELETE',
    path: '/v2/probes/{probeId}/items/{itemId}',
    handler: 'categories/get-category',
    summary: 'A row that exists only in this test',
    principal: 'company',
    permission: 'categories:write',
    deniedCode: 'COMPANY_ACCESS_DENIED',
    successStatus: 204,
  };
  // The functions' nested stacks leave the root stack room under CloudFormation's cap of 500
  // resources (docs/api-decisions.md, "Browsers: CORS and HEAD"), so the probe row is one more row.
  return { ...actual, operationList: [...actual.operationList, extraRow] };
});

describe('a new row of the operation table', () => {
  let synthesized: SynthesizedStack;
  let template: Template;

  beforeAll(() => {
    // Act
    synthesized = synthesizeStack();
    template = synthesized.template;
  });

  it('adds its function', () => {
    // Assess
    // The real rows, the added row, the authorizer, the ledger sequencer, the three background
    // jobs (subcategory removal, import, export), the publisher and delivery functions of
    // events out, and the recorder of failed jobs.
    template.resourceCountIs('AWS::Lambda::Function', Object.keys(operations).length + 1 + 8);
    expect(operationList).toHaveLength(Object.keys(operations).length + 1);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'DELETE /v2/probes/{probeId}/items/{itemId}: A row that exists only in this test',
    });
  });

  it('gives a row that declares no access no data access at all', () => {
    // Prepare
    const role = synthesized.stack.api.operationFunctions.get('archiveProbeItem' as OperationId)!.role!;
    // Act
    const allowed = statementsOfRole(synthesized.template, synthesized.logicalIdOf(role))
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap(actionsOf);
    // Assess: its log group and traces only.
    expect(allowed.filter((action) => !/^(logs|xray):/.test(action))).toEqual([]);
  });

  it('adds its route, nested resources included, behind the authorizer', () => {
    // Prepare
    const paths = resourcePaths(template);

    // Act
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).map(
      (method) => method.Properties,
    );
    const added = methods.find(
      (method) =>
        method.HttpMethod === 'DELETE' &&
        paths.get(method.ResourceId.Ref) === '/v2/probes/{probeId}/items/{itemId}',
    );

    // Assess (the CORS preflights, one per resource for the console's origin, are not rows)
    const routeMethods = methods.filter((method) => method.HttpMethod !== 'OPTIONS');
    expect(routeMethods).toHaveLength(routesOfRows(operationList).length);
    expect(added).toMatchObject({ AuthorizationType: 'CUSTOM', OperationName: 'archiveProbeItem' });
    expect([...paths.values()]).toEqual(
      expect.arrayContaining(['/v2/probes', '/v2/probes/{probeId}', '/v2/probes/{probeId}/items']),
    );
  });
});
