/** Time stamps: ISO 8601 in UTC, millisecond precision. */
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
