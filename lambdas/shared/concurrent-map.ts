/**
 * `items.map(map)` with at most `concurrency` calls in flight, results in the items' order.
 *
 * @example
 * const events = await mapConcurrently(records, 32, (record) => readChain(record));
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  map: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
