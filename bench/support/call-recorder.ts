/**
 * Keeps the SDK calls made while it is on (which client, which command, its input, when it
 * started and ended), so that a benchmark can send the same calls again without the handler
 * around them. Filled by the meters' middlewares; off unless a scenario turns it on. Inputs are
 * kept by reference (copying them would add to the time being measured); the replay copies
 * them, outside its timing.
 */

export type SdkClientName = 'dynamodb' | 's3';

export interface RecordedCall {
  client: SdkClientName;
  commandName: string;
  /** The input the command was given (document-client values for DynamoDB). */
  input: unknown;
  startedAtMs: number;
  endedAtMs: number;
  failed: boolean;
}

export class CallRecorder {
  private calls: RecordedCall[] = [];
  private recording = false;

  /** Forgets what was kept and starts keeping calls. */
  start(): void {
    this.calls = [];
    this.recording = true;
  }

  /** Stops keeping calls; returns those kept since {@link start}, in the order they started. */
  stop(): RecordedCall[] {
    this.recording = false;
    return [...this.calls].sort((a, b) => a.startedAtMs - b.startedAtMs);
  }

  /** Called by a middleware when a call starts; returns the function that records its end. */
  begin(client: SdkClientName, commandName: string, input: unknown): (failed: boolean) => void {
    if (!this.recording) return () => undefined;
    const call: RecordedCall = {
      client,
      commandName,
      input,
      startedAtMs: nowMs(),
      endedAtMs: Number.NaN,
      failed: false,
    };
    this.calls.push(call);
    return (failed) => {
      call.endedAtMs = nowMs();
      call.failed = failed;
    };
  }
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
