/** Small statistics for benchmark samples. */
export function percentile(samples: number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (samples: number[]): number => percentile(samples, 0.5);

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** Runs `action` `count` times (after `warmup` unmeasured runs); returns each run's milliseconds. */
export async function timeRuns(
  count: number,
  action: () => Promise<unknown>,
  warmup = 10,
): Promise<number[]> {
  for (let run = 0; run < warmup; run++) await action();
  const samples: number[] = [];
  for (let run = 0; run < count; run++) {
    const started = process.hrtime.bigint();
    await action();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples;
}
