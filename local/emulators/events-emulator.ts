/**
 * EventBridge's PutEvents on the local AWS endpoint: every entry is appended, as one JSON line
 * in the shape `lambdas/shared/event-bus.ts` names a bus entry (`source`, `detailType`,
 * `detail`, `time`), to the local bus file (docs/events.md, "Locally"), so that what the publisher
 * puts on the bus can be read on one machine. Every entry is accepted.
 */
import { appendFile } from 'node:fs/promises';
import type { BusEntry } from '../../lambdas/shared/event-bus.js';
import type { EmulatedRequest, ServiceEmulator } from '../iam/local-aws-endpoint.js';

interface PutEventsEntry {
  Source: string;
  DetailType: string;
  Detail: string;
  Time?: number | string;
  EventBusName?: string;
}

const response = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.1' },
  body: Buffer.from(JSON.stringify(body)),
});

/** The emulator; `busFile` is where the entries go. */
export function eventsEmulator(busFile: string): ServiceEmulator {
  return async (request: EmulatedRequest) => {
    const operation = String(request.headers['x-amz-target'] ?? '');
    if (operation !== 'AWSEvents.PutEvents') {
      return response(400, {
        __type: 'UnsupportedOperationException',
        message: `Local EventBridge does not emulate ${operation}`,
      });
    }
    const { Entries = [] } = JSON.parse(request.body.toString('utf8') || '{}') as {
      Entries?: PutEventsEntry[];
    };
    const lines = Entries.map((entry) => {
      // The SDK sends Time as epoch seconds.
      const time =
        typeof entry.Time === 'number' ? new Date(entry.Time * 1000) : new Date(entry.Time ?? Date.now());
      const busEntry: BusEntry = {
        source: entry.Source,
        detailType: entry.DetailType,
        detail: JSON.parse(entry.Detail) as unknown,
        time: time.toISOString(),
      };
      return `${JSON.stringify(busEntry)}\n`;
    });
    await appendFile(busFile, lines.join(''));
    return response(200, {
      FailedEntryCount: 0,
      Entries: Entries.map((_, index) => ({ EventId: `local-${Date.now()}-${index}` })),
    });
  };
}
