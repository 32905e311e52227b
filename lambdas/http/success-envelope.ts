/**
 * The body the subcategory operations respond with (spec 4.8 to 4.10), unlike the bare bodies of
 * the others: `{ status: 'success', data, timestamp }`, with whatever the operation adds beside
 * `data` (an update's `changes`) before the timestamp.
 */
import { nowIso } from '#shared/clock.js';

/**
 * Wraps `data` in the success envelope, stamped now.
 *
 * @example
 * successEnvelope({ imageId }, { changes }); // { status: 'success', data: { imageId }, changes, timestamp }
 */
export function successEnvelope<Data, Beside extends object = Record<never, never>>(
  data: Data,
  beside?: Beside,
): { status: 'success'; data: Data; timestamp: string } & Beside {
  return { status: 'success', data, ...(beside as Beside), timestamp: nowIso() };
}
