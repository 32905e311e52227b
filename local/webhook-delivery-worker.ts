/**
 * Local mode's delivery function runner: receives messages from the local delivery queue
 * (`lambdas/repositories/local-delivery-queue.ts`) as SQS would hand them to Lambda and calls
 * the same handler (`lambdas/jobs/deliver-webhooks.ts`), one message per call. A received
 * message is hidden for a visibility timeout first, so that a crash mid-delivery offers it again
 * (also after a restart); handled messages are deleted, failed ones stay. Lanes are served one
 * message at a time, a company's lanes in turn, and each company has a bounded number of
 * deliveries in flight, so a slow receiver never holds up another company's deliveries, nor its
 * own company's other lanes.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LocalQueueMessage, QueuedCompany } from '../lambdas/repositories/local-delivery-queue.js';

type DeliveryHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface DeliveryWorkerOptions {
  pollIntervalMs?: number;
  /** Deliveries in flight at once, over all companies. */
  maxInFlight?: number;
  /** Deliveries in flight at once for one company. */
  maxInFlightPerCompany?: number;
  handler?: DeliveryHandler;
}

export interface DeliveryWorker {
  /** Looks at the queue now (new messages were sent) instead of at the end of an idle pause. */
  wake(): void;
  stop(): Promise<void>;
}

/** While the queue has nothing to hand out, the pause between looks doubles up to this. */
const IDLE_PAUSE_MAX_MS = 500;

/** As the queue's visibility timeout in AWS: a delivery that crashed comes back after it. */
const LOCAL_VISIBILITY_TIMEOUT_SECONDS = 30;

const toSqsRecord = (message: LocalQueueMessage): SQSRecord =>
  ({
    messageId: message.receiptHandle,
    receiptHandle: message.receiptHandle,
    body: message.body,
    attributes: { MessageGroupId: message.lane, ApproximateReceiveCount: String(message.receiveCount + 1) },
    messageAttributes: {},
    eventSource: 'aws:sqs',
  }) as unknown as SQSRecord;

/** Starts receiving; `stop` waits for the deliveries in flight. */
export async function startDeliveryWorker(options: DeliveryWorkerOptions = {}): Promise<DeliveryWorker> {
  const handler = options.handler ?? (await import('../lambdas/jobs/deliver-webhooks.js')).handler;
  // Loaded on start, not with this module: the table client reads its endpoint from the
  // environment when it is created, which `npm start` sets only once the stack runs.
  const {
    deleteLocalMessage,
    delayLocalMessage,
    forgetCompanyIfIdle,
    laneHeads,
    listQueuedCompanies,
    moveMessagesOfOnePartition,
  } = await import('../lambdas/repositories/local-delivery-queue.js');
  const maxInFlight = options.maxInFlight ?? 32;
  const maxPerCompany = options.maxInFlightPerCompany ?? 4;
  const lanesInFlight = new Set<string>();
  const perCompany = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  /**
   * Set by `wake`: messages may have come since the current look read the queue. A wake during
   * a look would otherwise be lost, and what it announced would wait out the next idle pause;
   * the loop checks it before it pauses.
   */
  let woken = false;
  let endPause: (() => void) | undefined;
  const idlePause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => endPause?.(), ms);
      endPause = () => {
        clearTimeout(timer);
        endPause = undefined;
        resolve();
      };
    });
  const wake = () => {
    woken = true;
    endPause?.();
  };

  async function deliver(message: LocalQueueMessage): Promise<void> {
    try {
      await delayLocalMessage(message.receiptHandle, LOCAL_VISIBILITY_TIMEOUT_SECONDS);
      const result = await handler({ Records: [toSqsRecord(message)] });
      if (result.batchItemFailures.length === 0) await deleteLocalMessage(message.receiptHandle);
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'Local delivery failed', error: String(error) }),
      );
    } finally {
      lanesInFlight.delete(message.lane);
      perCompany.set(message.companyId, (perCompany.get(message.companyId) ?? 1) - 1);
      // A place is free, and the handler may have queued messages (a fan-out's deliveries).
      wake();
    }
  }

  /** The lane each company's last look started last: the next look begins after it. */
  const lastLaneStarted = new Map<string, string>();

  /** Starts what may go of the heads of a company's lanes; the number started. */
  async function lookAtCompany(company: QueuedCompany, now: number): Promise<number> {
    const { companyId } = company;
    let started = 0;
    let lanes = 0;
    for await (const head of laneHeads(companyId, lastLaneStarted.get(companyId))) {
      lanes++;
      if (inFlight.size >= maxInFlight || (perCompany.get(companyId) ?? 0) >= maxPerCompany) break;
      if (lanesInFlight.has(head.lane) || head.visibleAt > now) continue;
      lanesInFlight.add(head.lane);
      lastLaneStarted.set(companyId, head.lane);
      perCompany.set(companyId, (perCompany.get(companyId) ?? 0) + 1);
      const delivery = deliver(head).finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
      started++;
    }
    if (lanes === 0) {
      lastLaneStarted.delete(companyId);
      await forgetCompanyIfIdle(company);
    }
    return started;
  }

  async function run(): Promise<void> {
    await moveMessagesOfOnePartition().catch((error: unknown) => {
      console.error(
        JSON.stringify({
          level: 'WARN',
          message: 'Local delivery queue: messages of the earlier single partition not moved',
          error: String(error),
        }),
      );
    });
    const pollIntervalMs = options.pollIntervalMs ?? 50;
    let idlePauseMs = pollIntervalMs;
    let looks = 0;
    while (!stopping) {
      let started = 0;
      woken = false;
      try {
        const now = Date.now();
        const companies = await listQueuedCompanies();
        // Each look begins with the next company, so that no company always comes first to
        // the deliveries in flight that are left.
        const first = companies.length === 0 ? 0 : looks++ % companies.length;
        for (const company of [...companies.slice(first), ...companies.slice(0, first)]) {
          if (inFlight.size >= maxInFlight) break;
          if ((perCompany.get(company.companyId) ?? 0) >= maxPerCompany) continue;
          started += await lookAtCompany(company, now);
        }
      } catch (error) {
        if (!stopping) {
          console.error(
            JSON.stringify({
              level: 'WARN',
              message: 'Local delivery queue read failed',
              error: String(error),
            }),
          );
        }
      }
      if (started > 0 || woken) idlePauseMs = pollIntervalMs;
      else if (!stopping) {
        await idlePause(idlePauseMs);
        // A wake ends the idle spell; a quiet pause lengthens it.
        idlePauseMs = woken ? pollIntervalMs : Math.min(IDLE_PAUSE_MAX_MS, idlePauseMs * 2);
      }
    }
  }

  const running = run();
  return {
    wake,
    async stop() {
      stopping = true;
      wake();
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
