/** Time stamps: ISO 8601 in UTC, millisecond precision. */
import { ValidationError } from './errors.js';

export const nowIso = (): string => new Date().toISOString();

/**
 * A time stamp for a change of a record last changed at `previous`: now, but always later
 * than `previous`, so that `updatedAt` visibly moves even for two writes in one millisecond.
 */
export function nextTimestamp(previous: string): string {
  const now = Date.now();
  const previousMs = Date.parse(previous);
  return new Date(Math.max(now, previousMs + 1)).toISOString();
}

/** An ISO 8601 instant as stored timestamps are written (UTC, milliseconds), so that they compare as text. */
export const storedInstant = (instant: string): string => new Date(instant).toISOString();

/**
 * A time range's bounds as stored instants (`since` inclusive, `until` exclusive, either may be
 * missing); 400 `VALIDATION_ERROR` (`RANGE_INVALID` on `until`) when `until` is not later.
 */
export function storedTimeRange(range: { since?: string; until?: string }): {
  since?: string;
  until?: string;
} {
  const since = range.since === undefined ? undefined : storedInstant(range.since);
  const until = range.until === undefined ? undefined : storedInstant(range.until);
  if (since !== undefined && until !== undefined && since >= until) {
    throw new ValidationError([
      { field: 'until', code: 'RANGE_INVALID', message: 'until must be later than since' },
    ]);
  }
  return { since, until };
}
