/** The local gateway's routing by the operation table (real table rows). */
import { operationList } from '../../lambdas/operations';
import { matchRoute } from '../../local/route-matcher';

const categoryId = '0b4f2a52-5b7c-4d0e-9a43-6f8e3c2d1a00';

describe('matchRoute with the operation table', () => {
  it.each([
    ['GET', '/v2/categories', 'listCategories'],
    ['POST', '/v2/categories', 'createCategory'],
  ])('routes %s %s to %s without path parameters', (method, path, operationId) => {
    // Act
    const match = matchRoute(method, path);
    // Assess
    expect(match?.operation.id).toBe(operationId);
    expect(match?.pathParameters).toEqual({});
  });

  it.each([
    ['GET', 'getCategory'],
    ['PUT', 'updateCategory'],
  ])('routes %s /v2/categories/{categoryId} to %s with the id as a path parameter', (method, operationId) => {
    // Act
    const match = matchRoute(method, `/v2/categories/${categoryId}`);
    // Assess
    expect(match?.operation.id).toBe(operationId);
    expect(match?.pathParameters).toEqual({ categoryId });
  });

  it.each([
    ['GET', '/v2/objects/export', 'exportObjects', {}],
    ['GET', `/v2/objects/${categoryId}`, 'getObject', { objectId: categoryId }],
    ['GET', '/v2/objects/EXT-export', 'getObject', { objectId: 'EXT-export' }],
    ['POST', '/v2/imports/i-1/start', 'startImport', { importId: 'i-1' }],
    ['GET', '/v2/imports/i-1/errors', 'listImportErrors', { importId: 'i-1' }],
    ['GET', '/v2/imports/i-1', 'getImport', { importId: 'i-1' }],
  ])(
    'routes %s %s to %s: a literal segment wins over a {parameter}',
    (method, path, operationId, parameters) => {
      // Act
      const match = matchRoute(method, path);
      // Assess
      expect(match?.operation.id).toBe(operationId);
      expect(match?.pathParameters).toEqual(parameters);
    },
  );

  it('gives the whole operation row, as the table holds it', () => {
    // Act
    const match = matchRoute('POST', '/v2/categories');
    // Assess
    expect(match?.operation).toBe(operationList.find((operation) => operation.id === 'createCategory'));
  });

  it('percent-decodes path parameters', () => {
    // Act
    const match = matchRoute('GET', '/v2/categories/a%20b%2Fc');
    // Assess
    expect(match?.pathParameters).toEqual({ categoryId: 'a b/c' });
  });

  it('keeps a malformed percent escape as it is', () => {
    // Act
    const match = matchRoute('GET', '/v2/categories/%E0%A4%A');
    // Assess
    expect(match?.pathParameters).toEqual({ categoryId: '%E0%A4%A' });
  });

  it.each([
    ['an unknown path', 'GET', '/v2/nothing'],
    ['a method the path does not have', 'DELETE', '/v2/categories'],
    ['a lower-case method', 'get', '/v2/categories'],
    ['another case in a literal segment', 'GET', '/V2/Categories'],
    ['an extra segment', 'GET', `/v2/categories/${categoryId}/extra`],
    ['the root', 'GET', '/'],
    ['a missing version prefix', 'GET', '/categories'],
  ])('finds no route for %s', (_label, method, path) => {
    // Act / Assess
    expect(matchRoute(method, path)).toBeUndefined();
  });

  it('finds a route for every row of the table, with its own path template filled in', () => {
    for (const operation of operationList) {
      // Prepare
      const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => `value-of-${name}`);
      // Act
      const match = matchRoute(operation.method, path);
      // Assess
      expect(match?.operation.method).toBe(operation.method);
      expect(match?.operation.path).toBe(operation.path);
    }
  });
});
