/**
 * The witness's HTTP interface (C2SP tlog-witness), for any adapter (the local server,
 * the Lambda function URL): `POST /add-checkpoint` and `GET /<origin hash>/checkpoint`, both
 * at the root (the submission and monitoring prefixes are the witness's URL). Refusals become
 * the spec's statuses here and nowhere else.
 */
import type { Witness } from './witness.js';
import { ConflictError, WitnessRefusalError } from './witness-errors.js';

export interface WitnessHttpRequest {
  method: string;
  /** The path without query. */
  path: string;
  body: string;
}

export interface WitnessHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** tlog-witness: the Content-Type of a 409's body, the size the witness last cosigned. */
const TREE_SIZE_CONTENT_TYPE = 'text/x.tlog.size';
const TEXT = 'text/plain; charset=utf-8';
/** A body is an old size, at most 63 hashes and a checkpoint: a few KiB; more is not a request. */
export const MAX_BODY_BYTES = 64 * 1024;
const CHECKPOINT_PATH = /^\/([0-9a-f]{64})\/checkpoint$/;

const text = (status: number, body: string, headers: Record<string, string> = {}): WitnessHttpResponse => ({
  status,
  headers: { 'content-type': TEXT, ...headers },
  body,
});

function refusal(error: unknown): WitnessHttpResponse {
  if (error instanceof ConflictError) {
    return { status: 409, headers: { 'content-type': TREE_SIZE_CONTENT_TYPE }, body: `${error.treeSize}\n` };
  }
  if (error instanceof WitnessRefusalError) return text(error.status, `${error.message}\n`);
  console.error('witness: request failed', error);
  return text(500, 'internal error\n');
}

/**
 * Answers one request.
 *
 * @example
 * const response = await routeWitnessRequest(witness, { method: 'POST', path: '/add-checkpoint', body });
 */
export async function routeWitnessRequest(
  witness: Witness,
  request: WitnessHttpRequest,
): Promise<WitnessHttpResponse> {
  const monitored = CHECKPOINT_PATH.exec(request.path);
  const allowed = request.path === '/add-checkpoint' ? 'POST' : monitored ? 'GET' : undefined;
  if (!allowed) return text(404, 'not found\n');
  if (request.method !== allowed) return text(405, 'method not allowed\n', { allow: allowed });
  try {
    if (monitored) return text(200, await witness.latestCheckpoint(monitored[1] as string));
    return text(200, await witness.addCheckpoint(request.body));
  } catch (error) {
    return refusal(error);
  }
}
