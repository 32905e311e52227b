/** The retry schedule of failed deliveries: exponential, capped, jittered, for 24 h. */
import {
  DEFAULT_RETRY_SCHEDULE,
  retryDelayMs,
  retrySchedule,
} from '../../lambdas/domain/webhooks/retry-schedule';

describe('retryDelayMs', () => {
  it('doubles per failure between half and all of its ceiling, up to an hour', () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 0)).toBe(2_500);
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 1)).toBe(5_000);
    expect(retryDelayMs(4, DEFAULT_RETRY_SCHEDULE, () => 1)).toBe(40_000);
    expect(retryDelayMs(30, DEFAULT_RETRY_SCHEDULE, () => 1)).toBe(3_600_000);
    expect(retryDelayMs(30, DEFAULT_RETRY_SCHEDULE, () => 0)).toBe(1_800_000);
  });

  it('makes about 30-45 attempts in the 24 h window', () => {
    for (const random of [() => 0, () => 1]) {
      let elapsed = 0;
      let failures = 0;
      while (elapsed <= DEFAULT_RETRY_SCHEDULE.windowMs)
        elapsed += retryDelayMs(++failures, DEFAULT_RETRY_SCHEDULE, random);
      expect(failures).toBeGreaterThanOrEqual(30);
      expect(failures).toBeLessThanOrEqual(60);
    }
  });
});

describe('retrySchedule', () => {
  afterEach(() => {
    delete process.env.WEBHOOK_RETRY_WINDOW_MS;
  });

  it('is 5 s doubling to 1 h for 24 h, unless the environment shortens it', () => {
    expect(retrySchedule()).toEqual({ firstDelayMs: 5_000, maxDelayMs: 3_600_000, windowMs: 86_400_000 });
    process.env.WEBHOOK_RETRY_WINDOW_MS = '1000';
    expect(retrySchedule().windowMs).toBe(1000);
    process.env.WEBHOOK_RETRY_WINDOW_MS = 'soon';
    expect(retrySchedule().windowMs).toBe(86_400_000);
  });
});
