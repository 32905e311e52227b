/**
 * Local mode's Lambda runtime: the code of one execution environment, run in a worker thread of
 * its own (so its module state and `process.env` are its own). It loads the function's bundle,
 * the very file esbuild builds for `cdk deploy`, at the first invocation (the cold start), and
 * then runs one invocation at a time, as Lambda does. Plain JavaScript: nothing here is compiled.
 *
 * Messages from the parent: `{type:'invoke', id, event, context, streamed}`, then for a streamed
 * body `{type:'body', id, chunk}`… and `{type:'bodyEnd', id}`, each chunk sent once the runtime
 * asked for it (`{type:'bodyPull', id}`). Replies: `{type:'result', id, result}` or
 * `{type:'error', id, error:{name, message, stack}}`.
 */
const { parentPort, workerData } = require('node:worker_threads');
const { PassThrough } = require('node:stream');

/** The key under which the local gateway's request stream rides on the event (`lambdas/http/body-stream.ts`). */
const BODY_STREAM = Symbol.for('asset-registry.local.body-stream');

// What NODE_OPTIONS=--enable-source-maps does for a process (a worker takes no NODE_OPTIONS).
if ((process.env.NODE_OPTIONS ?? '').includes('--enable-source-maps')) process.setSourceMapsEnabled(true);

let handler;
const bodies = new Map();

function loadHandler() {
  if (!handler) {
    const module = require(workerData.bundlePath);
    handler = module[workerData.handlerName];
    if (typeof handler !== 'function')
      throw new Error(`${workerData.bundlePath} exports no function ${workerData.handlerName}`);
  }
  return handler;
}

function contextOf(invocation) {
  const { deadline, ...fields } = invocation.context;
  return {
    ...fields,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function invoke(message) {
  const event = message.event;
  if (message.streamed) {
    const body = new PassThrough();
    bodies.set(message.id, body);
    Object.defineProperty(event, BODY_STREAM, { value: body, enumerable: false });
  }
  try {
    const result = await loadHandler()(event, contextOf(message));
    parentPort.postMessage({ type: 'result', id: message.id, result: result ?? null });
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({
      type: 'error',
      id: message.id,
      error: { name: failure.name, message: failure.message, stack: failure.stack },
    });
  } finally {
    const body = bodies.get(message.id);
    bodies.delete(message.id);
    // A refused upload gets its response early: what is left of its body is read and dropped.
    body?.resume();
  }
}

/** Writes a chunk of a streamed body, and asks for the next once the handler has read this one. */
function takeChunk(message) {
  const body = bodies.get(message.id);
  const pull = () => parentPort.postMessage({ type: 'bodyPull', id: message.id });
  if (!body || body.destroyed) return pull();
  if (body.write(Buffer.from(message.chunk))) pull();
  else body.once('drain', pull);
}

parentPort.on('message', (message) => {
  if (message.type === 'invoke') void invoke(message);
  else if (message.type === 'body') takeChunk(message);
  else if (message.type === 'bodyEnd') bodies.get(message.id)?.end();
  else if (message.type === 'bodyError') bodies.get(message.id)?.destroy(new Error(message.message));
});
