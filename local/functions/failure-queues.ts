/**
 * Local mode's SQS for the queues that only failures reach (`lib/failed-work.ts`): what the
 * stack's on-failure destinations send. A message is handed to the function whose event source
 * mapping reads its queue, as Lambda's poller hands it (an SQS event of one record), again after
 * a pause while the function fails, up to the queue's `maxReceiveCount`; then it moves to the
 * queue's dead-letter queue. A queue that no function reads keeps its messages in
 * `<data>/failed-work/<queue name>.jsonl`, one JSON message per line, for the operator (in AWS:
 * the queue, with its alarm). The webhook delivery queue is not one of these: it has its own
 * emulator (`local/emulators/sqs-emulator.ts`).
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { LocalStack } from '../synthesized/local-stack.js';

export interface FailureQueuesOptions {
  stack: Pick<LocalStack, 'queues' | 'eventSourceMappings'>;
  /** Runs a function synchronously (`LocalFunctions.invoke`). */
  invoke: (functionName: string, event: unknown) => Promise<unknown>;
  /** Where the messages of queues that no function reads are kept. */
  directory: string;
  /** The pause before a message is offered again (in AWS: the queue's visibility timeout). */
  redeliveryPauseMs?: number;
}

interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class LocalFailureQueues {
  constructor(private readonly options: FailureQueuesOptions) {}

  /** Sends one message (its body as JSON) to the queue, and resolves once it is consumed or kept. */
  async send(queueArn: string, body: unknown): Promise<void> {
    const queue = this.options.stack.queues.find((each) => each.arn === queueArn);
    if (!queue) throw new Error(`No queue ${queueArn} in the stack`);
    const consumer = this.options.stack.eventSourceMappings.find(
      (mapping) => mapping.EventSourceArn === queueArn && mapping.Enabled !== false,
    );
    const messageBody = JSON.stringify(body);
    if (!consumer) {
      mkdirSync(this.options.directory, { recursive: true });
      const queueName = queueArn.split(':').pop() as string;
      appendFileSync(join(this.options.directory, `${queueName}.jsonl`), `${messageBody}\n`);
      return;
    }
    const redrive = queue.properties.RedrivePolicy as RedrivePolicy | undefined;
    const receives = redrive?.maxReceiveCount ?? 1;
    const messageId = randomUUID();
    for (let receive = 1; receive <= receives; receive++) {
      if (await this.consumed(String(consumer.FunctionName), queueArn, messageId, messageBody, receive))
        return;
      if (receive < receives) await delay(this.options.redeliveryPauseMs ?? 1000);
    }
    if (redrive) await this.send(redrive.deadLetterTargetArn, body);
  }

  /** Whether the consumer took the message (it neither threw nor reported it failed). */
  private async consumed(
    functionName: string,
    queueArn: string,
    messageId: string,
    body: string,
    receiveCount: number,
  ): Promise<boolean> {
    const event = {
      Records: [
        {
          messageId,
          receiptHandle: `${messageId}-${receiveCount}`,
          body,
          attributes: { ApproximateReceiveCount: String(receiveCount) },
          messageAttributes: {},
          eventSource: 'aws:sqs',
          eventSourceARN: queueArn,
        },
      ],
    } as unknown as SQSEvent;
    try {
      const result = (await this.options.invoke(functionName, event)) as SQSBatchResponse | undefined;
      return (result?.batchItemFailures ?? []).length === 0;
    } catch {
      return false;
    }
  }
}
