/** Reading the parts of a proxy event: headers by any case, text and JSON bodies. */

import { bodyText, headerValue, parseJsonBody } from '../../lambdas/http/http-request';
import { ValidationError } from '../../lambdas/shared/errors';
import { proxyEvent } from '../support/api-events';

describe('headerValue', () => {
  it('finds a header whatever the case of its name', () => {
    // Prepare
    const headers = { 'x-api-key': 'lower', 'Content-Type': 'application/json' };
    // Act / Assess
    expect(headerValue(headers, 'X-API-Key')).toBe('lower');
    expect(headerValue(headers, 'content-type')).toBe('application/json');
  });

  it('is undefined for a missing header and for no headers at all', () => {
    // Act / Assess
    expect(headerValue({ a: '1' }, 'X-API-Key')).toBeUndefined();
    expect(headerValue(null, 'X-API-Key')).toBeUndefined();
  });
});

describe('bodyText and parseJsonBody', () => {
  it('decodes a base64 body as UTF-8', () => {
    // Prepare
    const event = proxyEvent({ method: 'POST', path: '/v2/categories' });
    event.body = Buffer.from('{"name":"Çà va 😀"}').toString('base64');
    event.isBase64Encoded = true;
    // Act / Assess
    expect(bodyText(event)).toBe('{"name":"Çà va 😀"}');
    expect(parseJsonBody(event)).toEqual({ name: 'Çà va 😀' });
  });

  it('reads a missing or blank body as {}', () => {
    // Prepare
    const missing = proxyEvent({ method: 'POST', path: '/v2/categories' });
    const blank = proxyEvent({ method: 'POST', path: '/v2/categories', rawBody: '  \n' });
    // Act / Assess
    expect(parseJsonBody(missing)).toEqual({});
    expect(parseJsonBody(blank)).toEqual({});
  });

  it('throws VALIDATION_ERROR with a FORMAT_INVALID body issue for malformed JSON', () => {
    // Prepare
    const event = proxyEvent({ method: 'POST', path: '/v2/categories', rawBody: "{name: 'x'}" });
    // Act
    let thrown: unknown;
    try {
      parseJsonBody(event);
    } catch (error) {
      thrown = error;
    }
    // Assess
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: 'The body is not valid JSON',
      issues: [{ field: 'body', code: 'FORMAT_INVALID', message: 'The body is not valid JSON' }],
    });
  });

  it('returns JSON arrays and strings as they are, for the schema to refuse', () => {
    // Prepare
    const array = proxyEvent({ method: 'POST', path: '/v2/categories', rawBody: '[1]' });
    const text = proxyEvent({ method: 'POST', path: '/v2/categories', rawBody: '"Vehicles"' });
    // Act / Assess
    expect(parseJsonBody(array)).toEqual([1]);
    expect(parseJsonBody(text)).toBe('Vehicles');
  });
});
