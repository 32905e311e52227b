/**
 * Puts events on the stack's EventBridge bus (`EVENT_BUS_NAME`). Local mode has no EventBridge:
 * with `LOCAL_EVENT_BUS_FILE` set, the same entries are appended to that file as JSON lines, so
 * that the publishing code path runs (and can be inspected) on one machine.
 */
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';

/** Environment variable with the bus name (AWS). */
export const EVENT_BUS_NAME_ENVIRONMENT = 'EVENT_BUS_NAME';
/** Environment variable with the file local mode appends entries to. */
export const LOCAL_EVENT_BUS_FILE_ENVIRONMENT = 'LOCAL_EVENT_BUS_FILE';

/** PutEvents takes at most 10 entries per call. */
const ENTRIES_PER_CALL = 10;

export interface BusEntry {
  source: string;
  detailType: string;
  detail: unknown;
  time: string;
}

let eventBridge: EventBridgeClient | undefined;

/** Thrown when EventBridge refused some entries; the caller retries them (at least once). */
class EventBusError extends Error {
  override name = 'EventBusError';
}

/** Puts the entries, in order, 10 per call; throws {@link EventBusError} if any is refused. */
export async function putBusEntries(entries: readonly BusEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const localFile = process.env[LOCAL_EVENT_BUS_FILE_ENVIRONMENT];
  if (localFile) {
    await appendFile(localFile, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    return;
  }
  const busName = process.env[EVENT_BUS_NAME_ENVIRONMENT];
  if (!busName) throw new Error(`${EVENT_BUS_NAME_ENVIRONMENT} is not set`);
  eventBridge ??= new EventBridgeClient({});
  for (let start = 0; start < entries.length; start += ENTRIES_PER_CALL) {
    const batch: PutEventsRequestEntry[] = entries.slice(start, start + ENTRIES_PER_CALL).map((entry) => ({
      EventBusName: busName,
      Source: entry.source,
      DetailType: entry.detailType,
      Detail: JSON.stringify(entry.detail),
      Time: new Date(entry.time),
    }));
    const result = await eventBridge.send(new PutEventsCommand({ Entries: batch }));
    if ((result.FailedEntryCount ?? 0) > 0) {
      const codes = (result.Entries ?? []).map((entry) => entry.ErrorCode).filter(Boolean);
      throw new EventBusError(`EventBridge refused ${result.FailedEntryCount} entries: ${codes.join(', ')}`);
    }
  }
}
