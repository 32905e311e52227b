/**
 * Local mode's Lambda service: runs each function of the synthesized stack in execution
 * environments of its own (worker threads running `lambda-runtime.cjs`), each with exactly the
 * environment its template gives it plus what Lambda itself sets, its memory as the worker's heap
 * limit, and its timeout (an invocation past it is stopped and its environment discarded, as
 * Lambda does). An environment is started at a function's first invocation (a cold start), kept
 * warm afterwards and runs one invocation at a time; concurrent invocations get more
 * environments, up to `maxEnvironmentsPerFunction` (10 by default), and wait beyond. Each function's output goes
 * to its own log file (CloudWatch Logs' place here); warnings, errors and lines that are not
 * JSON are echoed to this process's stderr.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { LocalFunction } from '../synthesized/local-stack.js';

const RUNTIME_PATH = join(__dirname, 'lambda-runtime.cjs');
/** Environments of one function at once (Lambda scales to the account's concurrency, 1,000 by default). */
const MAX_ENVIRONMENTS_PER_FUNCTION = 10;

/** What Lambda returns when the handler threw or the invocation ran out of time. */
export class FunctionError extends Error {
  constructor(
    readonly functionName: string,
    readonly errorType: string,
    message: string,
  ) {
    super(message);
    this.name = 'FunctionError';
  }
}

export interface InvokeOptions {
  /** The request body as a stream (local mode's uploads), attached to the event. */
  bodyStream?: Readable;
}

export interface LocalFunctionsOptions {
  functions: readonly LocalFunction[];
  /** Each entry's bundle (`function-bundles.ts`); awaited at the first cold start. */
  bundles: Promise<Map<string, string>>;
  /** Variables every environment gets besides its template's: the endpoints and credentials. */
  platformEnvironment: (localFunction: LocalFunction) => Record<string, string>;
  region: string;
  /** Where each function's log file goes. */
  logDirectory: string;
  maxEnvironmentsPerFunction?: number;
  /**
   * How a function's asynchronous invocations are retried and where the ones given up on go (its
   * `AWS::Lambda::EventInvokeConfig`); without one, Lambda's defaults: two retries, no destination.
   */
  asyncInvocationHandling?: (functionName: string) => AsyncInvocationHandling | undefined;
  /** The pause before the n-th retry of an asynchronous invocation is n times this. */
  asyncRetryPauseMs?: number;
}

export interface AsyncInvocationHandling {
  retryAttempts: number;
  maxEventAgeSeconds: number;
  /** The on-failure destination: gets Lambda's record of the invocation given up on. */
  onFailure?: (record: AsyncInvocationRecord) => Promise<void>;
}

/** The record Lambda sends to an on-failure destination. */
export interface AsyncInvocationRecord {
  version: '1.0';
  timestamp: string;
  requestContext: {
    requestId: string;
    functionArn: string;
    condition: 'RetriesExhausted' | 'EventAgeExceeded';
    approximateInvokeCount: number;
  };
  requestPayload: unknown;
  responseContext: { statusCode: number; executedVersion: string; functionError: string };
  responsePayload: { errorType: string; errorMessage: string };
}

/** Lambda's defaults for asynchronous invocations. */
const DEFAULT_ASYNC_HANDLING: AsyncInvocationHandling = { retryAttempts: 2, maxEventAgeSeconds: 6 * 3600 };

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** One execution environment: a worker and the invocation it runs, if any. */
class ExecutionEnvironment {
  readonly worker: Worker;
  busy = false;
  /** Set when its function's environments are discarded while it runs an invocation. */
  discardWhenDone = false;
  private pending = new Map<string, Pending>();
  /** Streamed request bodies by invocation, paused until the runtime asks for the next chunk. */
  private bodies = new Map<string, Readable>();

  constructor(
    bundlePath: string,
    environment: Record<string, string>,
    memoryMb: number,
    log: (line: string) => void,
  ) {
    this.worker = new Worker(RUNTIME_PATH, {
      workerData: { bundlePath, handlerName: 'handler' },
      env: environment,
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    for (const stream of [this.worker.stdout, this.worker.stderr]) {
      createInterface({ input: stream }).on('line', log);
    }
    this.worker.on('message', (message: { type: string; id: string; result?: unknown; error?: Error }) => {
      if (message.type === 'bodyPull') {
        this.bodies.get(message.id)?.resume();
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.type === 'result') waiting.resolve(message.result);
      else waiting.reject(Object.assign(new Error(message.error?.message), message.error));
    });
    const failAll = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`Runtime exited with code ${code}`)));
  }

  invoke(
    id: string,
    event: unknown,
    context: Record<string, unknown>,
    bodyStream?: Readable,
  ): Promise<unknown> {
    const result = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.worker.postMessage({ type: 'invoke', id, event, context, streamed: bodyStream !== undefined });
    if (bodyStream) {
      // One chunk in flight: the next is read once the runtime has taken this one (backpressure),
      // so an upload is never held whole in memory on either side.
      this.bodies.set(id, bodyStream);
      const onData = (chunk: Buffer) => {
        bodyStream.pause();
        this.worker.postMessage({ type: 'body', id, chunk });
      };
      bodyStream.on('data', onData);
      bodyStream.on('end', () => this.worker.postMessage({ type: 'bodyEnd', id }));
      bodyStream.on('error', (error) =>
        this.worker.postMessage({ type: 'bodyError', id, message: error.message }),
      );
      // Once the response is out (a refusal may come early), what is left of the body is read and dropped.
      const drain = () => {
        this.bodies.delete(id);
        bodyStream.off('data', onData);
        bodyStream.resume();
      };
      result.then(drain, drain);
    }
    return result;
  }
}

/** Statistics for the bench's figures. */
export interface FunctionStatistics {
  coldStarts: number;
  invocations: number;
  environments: number;
}

export class LocalFunctions {
  private readonly idle = new Map<string, ExecutionEnvironment[]>();
  private readonly all = new Map<string, Set<ExecutionEnvironment>>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly logs = new Map<string, WriteStream>();
  private readonly asyncInvocations = new Set<Promise<unknown>>();
  readonly statistics: FunctionStatistics = { coldStarts: 0, invocations: 0, environments: 0 };
  private closed = false;

  constructor(private readonly options: LocalFunctionsOptions) {
    mkdirSync(options.logDirectory, { recursive: true });
  }

  /** The function by name or ARN. */
  find(nameOrArn: string): LocalFunction | undefined {
    return this.options.functions.find((each) => each.name === nameOrArn || each.arn === nameOrArn);
  }

  /**
   * Invokes a function synchronously (`RequestResponse`): resolves to its result, or rejects
   * with a {@link FunctionError} when its handler threw or it ran past its timeout.
   */
  async invoke(nameOrArn: string, event: unknown, options: InvokeOptions = {}): Promise<unknown> {
    const localFunction = this.find(nameOrArn);
    if (!localFunction) throw new Error(`No function ${nameOrArn} in the stack`);
    const environment = await this.takeEnvironment(localFunction);
    this.statistics.invocations++;
    const requestId = randomUUID();
    const deadline = Date.now() + localFunction.timeoutSeconds * 1000;
    const context = {
      functionName: localFunction.name,
      functionVersion: '$LATEST',
      invokedFunctionArn: localFunction.arn,
      memoryLimitInMB: String(localFunction.memoryMb),
      awsRequestId: requestId,
      logGroupName: `/aws/lambda/${localFunction.name}`,
      logStreamName: 'local',
      deadline,
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new FunctionError(
              localFunction.name,
              'Sandbox.Timedout',
              `Task timed out after ${localFunction.timeoutSeconds}.00 seconds`,
            ),
          ),
        deadline - Date.now(),
      );
    });
    try {
      return await Promise.race([environment.invoke(requestId, event, context, options.bodyStream), timeout]);
    } catch (error) {
      if (error instanceof FunctionError) {
        // Lambda discards an environment whose invocation timed out.
        this.discard(localFunction.name, environment);
        throw error;
      }
      const failure = error as Error;
      throw new FunctionError(localFunction.name, failure.name || 'Error', failure.message);
    } finally {
      clearTimeout(timer);
      this.release(localFunction.name, environment);
    }
  }

  /**
   * Invokes a function asynchronously (`Event`), as Lambda's Invoke with that type does: returns
   * at once; a failed run is retried (after a pause that grows with each retry) as the function's
   * handling says, and one given up on goes to its on-failure destination, or is logged.
   */
  invokeAsync(nameOrArn: string, event: unknown): void {
    const invocation: Promise<unknown> = this.runAsync(nameOrArn, event).finally(() =>
      this.asyncInvocations.delete(invocation),
    );
    this.asyncInvocations.add(invocation);
  }

  private async runAsync(nameOrArn: string, event: unknown): Promise<void> {
    const localFunction = this.find(nameOrArn);
    const handling =
      (localFunction && this.options.asyncInvocationHandling?.(localFunction.name)) ?? DEFAULT_ASYNC_HANDLING;
    const queuedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.invoke(nameOrArn, event);
        return;
      } catch (error) {
        const failure =
          error instanceof FunctionError ? error : new FunctionError(nameOrArn, 'Error', String(error));
        const pauseMs = attempt * (this.options.asyncRetryPauseMs ?? 1000);
        const expired = Date.now() + pauseMs - queuedAt > handling.maxEventAgeSeconds * 1000;
        if (attempt <= handling.retryAttempts && !expired) {
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
          continue;
        }
        const record: AsyncInvocationRecord = {
          version: '1.0',
          timestamp: new Date().toISOString(),
          requestContext: {
            requestId: randomUUID(),
            functionArn: `${localFunction?.arn ?? nameOrArn}:$LATEST`,
            condition: expired ? 'EventAgeExceeded' : 'RetriesExhausted',
            approximateInvokeCount: attempt,
          },
          requestPayload: event,
          responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
          responsePayload: { errorType: failure.errorType, errorMessage: failure.message },
        };
        console.error(
          JSON.stringify({
            level: 'ERROR',
            message: `Asynchronous invocation given up on after ${attempt} attempt(s)`,
            function: nameOrArn,
            errorMessage: failure.message,
            destination: handling.onFailure ? 'on-failure destination' : 'none',
          }),
        );
        await handling.onFailure?.(record).catch((destinationError: unknown) => {
          console.error(
            JSON.stringify({
              level: 'ERROR',
              message: 'The on-failure destination refused the record',
              function: nameOrArn,
              errorMessage: String(destinationError),
            }),
          );
        });
        return;
      }
    }
  }

  /**
   * Resolves once no asynchronous invocation runs, including those that the awaited ones started
   * (a test's wait for the background jobs its requests started).
   */
  async asyncInvocationsSettled(): Promise<void> {
    while (this.asyncInvocations.size > 0) await Promise.all([...this.asyncInvocations]);
  }

  /** Discards the function's idle environments and every busy one once it is done. */
  discardEnvironments(nameOrArn: string): void {
    const name = this.find(nameOrArn)?.name;
    if (!name) return;
    for (const environment of [...(this.all.get(name) ?? [])]) {
      if (environment.busy) environment.discardWhenDone = true;
      else this.discard(name, environment);
    }
  }

  /** Stops every environment. */
  async close(): Promise<void> {
    this.closed = true;
    const environments = [...this.all.values()].flatMap((set) => [...set]);
    await Promise.all(environments.map((environment) => environment.worker.terminate()));
    for (const log of this.logs.values()) log.end();
  }

  private async takeEnvironment(localFunction: LocalFunction): Promise<ExecutionEnvironment> {
    const max = this.options.maxEnvironmentsPerFunction ?? MAX_ENVIRONMENTS_PER_FUNCTION;
    // Awaited before counting environments: between a count and the start it allows, nothing waits.
    const bundlePath = (await this.options.bundles).get(localFunction.entry);
    if (!bundlePath) throw new Error(`No bundle for ${localFunction.entry}`);
    for (;;) {
      if (this.closed) throw new Error('Local functions are stopped');
      const ready = this.idle.get(localFunction.name)?.pop();
      if (ready) {
        ready.busy = true;
        return ready;
      }
      const environments = this.all.get(localFunction.name) ?? new Set();
      this.all.set(localFunction.name, environments);
      if (environments.size < max) {
        const environment = new ExecutionEnvironment(
          bundlePath,
          this.environmentOf(localFunction),
          localFunction.memoryMb,
          (line) => this.log(localFunction.name, line),
        );
        environment.worker.on('exit', () => this.discard(localFunction.name, environment));
        environments.add(environment);
        environment.busy = true;
        this.statistics.coldStarts++;
        this.statistics.environments++;
        return environment;
      }
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(localFunction.name) ?? [];
        queue.push(resolve);
        this.waiting.set(localFunction.name, queue);
      });
    }
  }

  private release(name: string, environment: ExecutionEnvironment): void {
    environment.busy = false;
    if (environment.discardWhenDone) {
      this.discard(name, environment);
      return;
    }
    if (this.all.get(name)?.has(environment)) {
      const idle = this.idle.get(name) ?? [];
      idle.push(environment);
      this.idle.set(name, idle);
    }
    this.waiting.get(name)?.shift()?.();
  }

  private discard(name: string, environment: ExecutionEnvironment): void {
    if (!this.all.get(name)?.delete(environment)) return;
    const idle = this.idle.get(name) ?? [];
    this.idle.set(
      name,
      idle.filter((each) => each !== environment),
    );
    void environment.worker.terminate();
    this.statistics.environments--;
    this.waiting.get(name)?.shift()?.();
  }

  /** The template's variables, Lambda's own, and the platform's (endpoints, credentials). */
  private environmentOf(localFunction: LocalFunction): Record<string, string> {
    const { region } = this.options;
    return {
      ...localFunction.environment,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_LAMBDA_FUNCTION_NAME: localFunction.name,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(localFunction.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${localFunction.name}`,
      AWS_LAMBDA_LOG_STREAM_NAME: 'local',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      LAMBDA_TASK_ROOT: '/var/task',
      TZ: ':UTC',
      ...this.options.platformEnvironment(localFunction),
    };
  }

  private log(functionName: string, line: string): void {
    let log = this.logs.get(functionName);
    if (!log) {
      log = createWriteStream(join(this.options.logDirectory, `${functionName}.log`), { flags: 'a' });
      this.logs.set(functionName, log);
    }
    log.write(`${line}\n`);
    if (shouldEcho(line)) process.stderr.write(`${line}\n`);
  }
}

/** Warnings, errors and anything that is not a JSON log line reach the console too. */
function shouldEcho(line: string): boolean {
  if (!line.startsWith('{')) return line.trim() !== '';
  try {
    const level = String((JSON.parse(line) as { level?: unknown }).level ?? '').toUpperCase();
    return level === 'WARN' || level === 'ERROR' || level === 'CRITICAL';
  } catch {
    return true;
  }
}
