/**
 * A local witness: its key and its checkpoints in a data folder, served over HTTP on loopback.
 * `cli/witness.ts` runs it; tests start one in their own process.
 */
import { appendFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { localSigner } from '../lambdas/domain/ledger/log-signer.js';
import { lockDataFolder } from './data-folder-lock.js';
import { fileWitnessStore } from './file-store.js';
import { createWitness, type Witness, type WitnessStep } from './witness.js';
import { MAX_BODY_BYTES, routeWitnessRequest } from './witness-routes.js';

/** The witness's name when none is given: `<host name>/witness`. */
export const defaultWitnessName = (): string => `${hostname()}/witness`;
/** The key file in the data folder (PKCS#8 PEM, mode 0600, made at first start). */
const WITNESS_KEY_FILE = 'witness-key.pem';
/** The folder of stored checkpoints in the data folder (one file per origin). */
const CHECKPOINTS_FOLDER = 'checkpoints';
/** Validly signed checkpoints refused as inconsistent (evidence of a fork), one JSON line each. */
export const INCONSISTENCIES_FILE = 'inconsistent-checkpoints.jsonl';

export interface WitnessServerOptions {
  /** Data folder: the key and the checkpoints. */
  dataDir: string;
  /** Verifier keys (type 0x01) of the logs followed; each key's name is its log's origin. */
  logs: string[];
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** The witness's key name; defaults to {@link defaultWitnessName}. */
  name?: string;
  /** Called at each step of an add-checkpoint (tests stop the process there). */
  afterStep?: (step: WitnessStep) => Promise<void> | void;
}

export interface WitnessServer {
  /** `http://127.0.0.1:<port>`: the submission and the monitoring prefix. */
  url: string;
  /** The cosigner verifier key (type 0x04). */
  verifierKey: string;
  name: string;
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts a witness server; the key is made in `dataDir` at first start. Throws
 * `DataFolderInUseError` while another live witness uses `dataDir`.
 *
 * @example
 * const witness = await startWitnessServer({ dataDir, logs: [logVerifierKey] });
 * await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body: `old 0\n\n${checkpoint}` });
 * await witness.close();
 */
export async function startWitnessServer(options: WitnessServerOptions): Promise<WitnessServer> {
  const name = options.name ?? defaultWitnessName();
  // The logs' keys are checked (and the witness key made, with an exclusive create) first, so
  // that a bad argument leaves no lock behind; nothing is stored before the lock is held.
  const witness = await createWitness({
    signer: localSigner(name, join(options.dataDir, WITNESS_KEY_FILE)),
    logs: options.logs,
    store: fileWitnessStore(join(options.dataDir, CHECKPOINTS_FOLDER)),
    afterStep: options.afterStep,
    recordInconsistency: (evidence) =>
      appendFile(
        join(options.dataDir, INCONSISTENCIES_FILE),
        `${JSON.stringify({ at: new Date().toISOString(), ...evidence })}\n`,
        { mode: 0o600 },
      ),
  });
  const release = lockDataFolder(options.dataDir);
  try {
    return await serve(witness, options, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function serve(
  witness: Witness,
  options: WitnessServerOptions,
  release: () => void,
): Promise<WitnessServer> {
  const server = createServer(async (request, response) => {
    let body: string;
    try {
      body = await readBody(request);
    } catch (error) {
      // Too large, or the client went away while sending it.
      const tooLarge = error instanceof BodyTooLargeError;
      response.writeHead(tooLarge ? 413 : 400, {
        'content-type': 'text/plain; charset=utf-8',
        connection: 'close',
      });
      response.end(
        tooLarge ? 'the body is too large for an add-checkpoint request\n' : 'the body could not be read\n',
      );
      return;
    }
    const path = new URL(request.url ?? '/', 'http://witness').pathname;
    const answer = await routeWitnessRequest(witness, { method: request.method ?? 'GET', path, body });
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the witness server has no port');
  return {
    url: `http://${host}:${address.port}`,
    verifierKey: witness.verifierKey,
    name: witness.name,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          release();
          return error ? reject(error) : resolve();
        });
        server.closeAllConnections();
      }),
  };
}
