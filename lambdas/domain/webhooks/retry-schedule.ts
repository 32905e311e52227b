/**
 * When a failed delivery is tried again: exponential backoff with jitter, for 24 h after its
 * first attempt. Tests and local experiments shorten it through the environment (docs/events.md).
 */

/** Environment variables that override the schedule (milliseconds). */
const RETRY_SCHEDULE_ENVIRONMENT = {
  firstDelayMs: 'WEBHOOK_RETRY_FIRST_DELAY_MS',
  maxDelayMs: 'WEBHOOK_RETRY_MAX_DELAY_MS',
  windowMs: 'WEBHOOK_RETRY_WINDOW_MS',
} as const;

export interface RetrySchedule {
  /** Delay after the first failure (before jitter). */
  firstDelayMs: number;
  /** Cap of the delay. */
  maxDelayMs: number;
  /** Retries stop this long after the first attempt; the delivery is then dead-lettered. */
  windowMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelayMs: 5_000,
  maxDelayMs: 60 * 60 * 1000,
  windowMs: 24 * 60 * 60 * 1000,
};

/** The schedule in effect: the defaults, or what the environment sets. */
export function retrySchedule(): RetrySchedule {
  const read = (name: keyof RetrySchedule) => {
    const value = Number(process.env[RETRY_SCHEDULE_ENVIRONMENT[name]]);
    return Number.isFinite(value) && value > 0 ? value : DEFAULT_RETRY_SCHEDULE[name];
  };
  return { firstDelayMs: read('firstDelayMs'), maxDelayMs: read('maxDelayMs'), windowMs: read('windowMs') };
}

/**
 * The pause after the `failures`-th failed attempt: the first delay doubled per failure, capped,
 * then "equal jitter" (half fixed, half random), so that receivers coming back are not hit by
 * every retry at once.
 *
 * @example
 * retryDelayMs(1, DEFAULT_RETRY_SCHEDULE) // 2,500-5,000
 * retryDelayMs(3, DEFAULT_RETRY_SCHEDULE) // 10,000-20,000
 */
export function retryDelayMs(failures: number, schedule: RetrySchedule, random = Math.random): number {
  const ceiling = Math.min(schedule.maxDelayMs, schedule.firstDelayMs * 2 ** Math.max(0, failures - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}
