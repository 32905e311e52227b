/**
 * Powertools writes two warnings on stderr for every handler call in local mode (metrics are
 * off, so "No application metrics to publish"; idempotency has no Lambda context, so "Could
 * not determine remaining time left"). Thousands of them would bury the tables: they are
 * counted and dropped here, and the counts go into the results.
 */
const NOISE = ['No application metrics to publish', 'Could not determine remaining time left'];

export function quietKnownWarnings(): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(NOISE.map((text) => [text, 0]));
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const noise = NOISE.find((each) => text.startsWith(each));
    if (noise) {
      counts[noise] = (counts[noise] ?? 0) + 1;
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return counts;
}
