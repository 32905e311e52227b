/**
 * A witness for the unit tests, written from C2SP tlog-witness's add-checkpoint rules and
 * answering through a `fetch` function (no network): it parses the body, checks the log's
 * signature (403), the origin (404), the old size against the size it cosigned last (409 with
 * `text/x.tlog.size`), the consistency proof (422), and cosigns (`cosignature/v1`). It can be
 * taken down (every request fails as a refused connection would) and brought back, and it
 * records each request's old size. The integration tests use the project's own witness server.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import {
  cosignedMessage,
  formatCosignatureLine,
  formatCosignerKey,
  fromBase64,
  parseCheckpointBody,
  splitNote,
  toHex,
  verifyCheckpoint,
  verifyConsistencyProof,
} from '../../verifier/index';

export interface TestWitness {
  name: string;
  /** Its cosigner verifier key (type 0x04). */
  vkey(): Promise<string>;
  url: string;
  fetch: typeof fetch;
  /** The size and root it cosigned last. */
  state: { size: number; rootHex?: string };
  /** The old size of each request it answered. */
  oldSizes: number[];
  down: boolean;
}

/** A witness named `name` at `url` that follows the log of `logVerifierKey`. */
export function testWitness(name: string, url: string, logVerifierKey: string): TestWitness {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const rawPublicKey = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const witness: TestWitness = {
    name,
    url,
    vkey: () => formatCosignerKey(name, rawPublicKey),
    state: { size: 0 },
    oldSizes: [],
    down: false,
    fetch: async (input, init) => {
      if (witness.down) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
      if (String(input) !== `${url}/add-checkpoint` || init?.method !== 'POST') {
        return new Response('not found', { status: 404 });
      }
      return addCheckpoint(witness, privateKey, rawPublicKey, logVerifierKey, String(init.body));
    },
  };
  return witness;
}

async function addCheckpoint(
  witness: TestWitness,
  privateKey: KeyObject,
  publicKey: Uint8Array,
  logVerifierKey: string,
  body: string,
): Promise<Response> {
  const blank = body.indexOf('\n\n');
  const header = body.slice(0, blank).split('\n');
  const note = body.slice(blank + 2);
  const oldSize = Number(/^old (0|[1-9][0-9]*)$/.exec(header[0] ?? '')?.[1] ?? Number.NaN);
  if (Number.isNaN(oldSize)) return new Response('bad old line', { status: 400 });
  witness.oldSizes.push(oldSize);
  const proof = header.slice(1).map(fromBase64);
  const origin = splitNote(note).text.split('\n')[0];
  if (origin !== logVerifierKey.split('+')[0]) return new Response('unknown log', { status: 404 });
  const verdict = await verifyCheckpoint(note, logVerifierKey);
  if (!verdict.ok) return new Response('bad signature', { status: 403 });
  const { treeSize, rootHash } = parseCheckpointBody(splitNote(note).text);
  if (oldSize > treeSize) return new Response('old size beyond the checkpoint', { status: 400 });
  if (oldSize !== witness.state.size) {
    return new Response(`${witness.state.size}\n`, {
      status: 409,
      headers: { 'Content-Type': 'text/x.tlog.size' },
    });
  }
  const rootHex = toHex(rootHash);
  if (oldSize === treeSize && witness.state.rootHex !== undefined && witness.state.rootHex !== rootHex) {
    return new Response('same size, other root', { status: 422 });
  }
  if (oldSize > 0 && oldSize < treeSize) {
    const consistent = await verifyConsistencyProof(
      oldSize,
      treeSize,
      Buffer.from(witness.state.rootHex as string, 'hex'),
      rootHash,
      proof,
    ).catch(() => false);
    if (!consistent) return new Response('inconsistent', { status: 422 });
  } else if (proof.length > 0) {
    return new Response('a proof where none is needed', { status: 422 });
  }
  witness.state = { size: treeSize, rootHex };
  const timestamp = Math.floor(Date.now() / 1000);
  const text = splitNote(note).text;
  const signature = sign(null, cosignedMessage(text, timestamp), privateKey);
  return new Response(await formatCosignatureLine(witness.name, publicKey, timestamp, signature), {
    status: 200,
  });
}
