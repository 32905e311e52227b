/** Standard Webhooks signatures, checked against the reference library `standardwebhooks`. */
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, signatureHeaders } from '../../lambdas/domain/webhooks/webhook-signing';

describe('signatureHeaders', () => {
  it('signs so that the standardwebhooks library verifies, with each of several secrets', () => {
    // Prepare
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const body = JSON.stringify({
      type: 'object.created',
      timestamp: new Date().toISOString(),
      data: { sequence: 1 },
    });
    // Act
    const headers = signatureHeaders(
      [current, previous],
      'a1b2c3d4-0000-5000-8000-000000000000',
      new Date(),
      body,
    );
    // Assess
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSigningSecret()).verify(body, { ...headers })).toThrow();
  });

  it('matches the library byte for byte', () => {
    const secret = generateSigningSecret();
    const sentAt = new Date('2026-01-02T03:04:05.678Z');
    const headers = signatureHeaders([secret], 'msg_1', sentAt, '{"a":1}');
    expect(headers).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1767323045',
      'webhook-signature': new Webhook(secret).sign('msg_1', sentAt, '{"a":1}'),
    });
  });

  it('makes secrets of 32 random bytes, whsec_-prefixed', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});
