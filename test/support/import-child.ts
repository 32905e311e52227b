/**
 * One run of an import job in a process of its own, for the tests that SIGKILL it (run as
 * `node --import tsx`, so that the signal reaches this process and not a wrapper around it). The table and the files bucket come from the environment, as in the Lambda function;
 * the job from `IMPORT_COMPANY_ID` and `IMPORT_JOB_ID`.
 *
 * With `IMPORT_STOP_AT` set, the run stops at a point of its own and waits there for the
 * parent's SIGKILL, after printing `reached <point>`:
 * - `rows:<n>`: after the first n row transactions have settled (a group of created objects with
 *   their traces, one object with its trace, or a row's error entries); every later one waits
 *   before it is sent, so exactly n are sent;
 * - `advance:<n>`: before the n-th count of a chunk (its rows written, not yet counted);
 * - `advanced:<n>`: after the n-th count of a chunk, before anything else is sent.
 * Without it, the run goes to its end and prints `done`.
 */

import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runImport } from '#domain/imports/import-runner.js';
import { openFileStream } from '#repositories/file-store.js';
import { dynamoDb } from '#shared/clients.js';

const companyId = process.env.IMPORT_COMPANY_ID as string;
const jobId = process.env.IMPORT_JOB_ID as string;
const [point, countText] = (process.env.IMPORT_STOP_AT ?? '').split(':');
const stopAfter = Number(countText);

const never = () => new Promise<never>(() => setInterval(() => {}, 60_000));
const reached = () => process.stdout.write(`reached ${point}:${stopAfter}\n`);

let rowWrites = 0;
let rowWritesSettled = 0;
let advances = 0;
let stopped = false;

type Send = (command: unknown, ...rest: unknown[]) => Promise<unknown>;
const send = dynamoDb.send.bind(dynamoDb) as Send;
const isAdvance = (command: unknown) =>
  command instanceof UpdateCommand && command.input.ConditionExpression === 'nextIndex = :from';

/** Every call of the shared DynamoDB client goes through here: the stop points are counted on it. */
const guardedSend: Send = async (command, ...rest) => {
  if (stopped) return never();
  if (point === 'rows' && command instanceof TransactWriteCommand) {
    rowWrites += 1;
    if (rowWrites > stopAfter) return never();
    try {
      return await send(command, ...rest);
    } finally {
      rowWritesSettled += 1;
      if (rowWritesSettled === stopAfter) {
        stopped = true;
        reached();
      }
    }
  }
  if (isAdvance(command)) {
    advances += 1;
    if (point === 'advance' && advances === stopAfter) {
      stopped = true;
      reached();
      return never();
    }
    if (point === 'advanced' && advances === stopAfter) {
      const result = await send(command, ...rest);
      stopped = true;
      reached();
      return result;
    }
  }
  return send(command, ...rest);
};
Object.assign(dynamoDb, { send: guardedSend });

async function main() {
  const result = await runImport(companyId, jobId, (job) => openFileStream(job.sourceKey));
  process.stdout.write(`done ${result.finished}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
