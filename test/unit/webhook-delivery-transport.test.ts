/** The delivery transport's limits: what the tests may shorten keeps the documented defaults. */
import {
  DELIVERY_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
  transportSettings,
} from '../../lambdas/domain/webhooks/delivery-transport';

describe('delivery transport settings', () => {
  it('gives a receiver 10,000 ms to respond by default', () => {
    // Assess
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    expect(transportSettings.timeoutMs).toBe(10_000);
  });

  it('keeps 1 KB of a response', () => {
    // Assess
    expect(RESPONSE_EXCERPT_BYTES).toBe(1024);
  });
});
