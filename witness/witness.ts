/**
 * The witness side of C2SP tlog-witness (c2sp.org/tlog-witness), `add-checkpoint` and the
 * monitor retrieval, cosigning with C2SP tlog-cosignature `cosignature/v1` (Ed25519, key type
 * 0x04). A witness follows logs given by their verifier keys (type 0x01; the key's name is the
 * log's origin), checks each checkpoint against the latest one it cosigned for that origin, and
 * stores the new one (compare-and-set, durably) before it answers with its cosignature.
 */

import type { LogSigner } from '../lambdas/domain/ledger/log-signer.js';
import {
  type CheckpointBody,
  cosignedMessage,
  formatCosignatureLine,
  formatCosignerKey,
  formatNoteSignature,
  fromBase64,
  fromHex,
  parseCheckpointBody,
  parseVerifierKey,
  sha256,
  splitNote,
  toHex,
  utf8,
  type VerifierKey,
  verifyConsistencyProof,
  verifyEd25519,
} from '../verifier/index.js';
import type { NoteSignature } from '../verifier/signed-note.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnprocessableError,
} from './witness-errors.js';
import type { CosignedCheckpoint, WitnessStore } from './witness-store.js';

/** tlog-witness: "The client MUST NOT send more than 63 consistency proof lines." */
const MAX_PROOF_LINES = 63;
const HASH_BYTES = 32;
/** RFC 6962 section 2.1: the root of the empty tree is the hash of the empty string. */
const EMPTY_TREE_ROOT = fromHex('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * Where a test may stop the witness (`afterStep`): `verified` once every check passed and
 * before anything is signed or stored, `stored` once the new checkpoint is stored and before
 * the answer leaves.
 */
export type WitnessStep = 'verified' | 'stored';

export interface WitnessOptions {
  /** The witness's Ed25519 key; its `keyName` is the witness's name. */
  signer: LogSigner;
  /** The verifier keys (vkeys, type 0x01) of the logs it follows; a log may have several. */
  logs: string[];
  store: WitnessStore;
  /** Milliseconds since the epoch; the cosignature's timestamp is this in seconds. */
  clock?: () => number;
  afterStep?: (step: WitnessStep) => Promise<void> | void;
  /**
   * Called before a 422 on a checkpoint the log validly signed: the request is evidence that the
   * log showed something inconsistent with what the witness cosigned (a fork, or a broken log).
   */
  recordInconsistency?: (evidence: InconsistencyEvidence) => Promise<void> | void;
}

/** A validly signed checkpoint the witness refused as inconsistent, with the request that held it. */
export interface InconsistencyEvidence {
  origin: string;
  reason: string;
  /** The whole add-checkpoint body: old size, proof, the signed checkpoint. */
  body: string;
  /** The size and root (base64) the witness had cosigned. */
  cosignedSize: number;
  cosignedRoot: string;
}

export interface Witness {
  name: string;
  /** The cosigner verifier key (type 0x04) that checks this witness's cosignatures. */
  verifierKey: string;
  /** The origins it follows. */
  origins: string[];
  /**
   * Handles an add-checkpoint body: resolves to the cosignature line(s), or throws a
   * `WitnessRefusalError` with the spec's status.
   */
  addCheckpoint(body: string): Promise<string>;
  /**
   * The latest cosigned checkpoint of the log whose origin's SHA-256 (lowercase hex) is given,
   * with the log's signatures and the cosignature; throws `NotFoundError` if none.
   */
  latestCheckpoint(originHash: string): Promise<string>;
}

/** An add-checkpoint request body, parsed. */
interface AddCheckpointRequest {
  oldSize: number;
  proof: Uint8Array[];
  /** The signed checkpoint note. */
  checkpoint: string;
}

/**
 * Parses an add-checkpoint body: `old <size>`, up to 63 base64 hashes, an empty line, a signed
 * checkpoint; every line ends in a newline. Throws `BadRequestError` otherwise.
 */
function parseAddCheckpointBody(body: string): AddCheckpointRequest {
  // The head holds no empty line, so the first one ends it.
  const blank = body.indexOf('\n\n');
  if (blank < 0)
    throw new BadRequestError('the body is an old size line, proof lines, an empty line, a checkpoint');
  const [oldLine = '', ...proofLines] = body.slice(0, blank).split('\n');
  const oldSize = /^old (.*)$/.exec(oldLine)?.[1] ?? '';
  if (!DECIMAL.test(oldSize) || !Number.isSafeInteger(Number(oldSize))) {
    throw new BadRequestError('the first line is "old <size>", a decimal without leading zeroes');
  }
  if (proofLines.length > MAX_PROOF_LINES) {
    throw new BadRequestError(`more than ${MAX_PROOF_LINES} consistency proof lines`);
  }
  const proof = proofLines.map((line) => {
    const hash = decodeBase64(line);
    if (hash?.length !== HASH_BYTES) throw new BadRequestError('a proof line is not a base64 SHA-256 hash');
    return hash;
  });
  return { oldSize: Number(oldSize), proof, checkpoint: body.slice(blank + 2) };
}

function decodeBase64(text: string): Uint8Array | undefined {
  try {
    return fromBase64(text);
  } catch {
    return undefined;
  }
}

/** The signed checkpoint's text, signature lines and parsed body; `BadRequestError` if it is not one. */
function readCheckpoint(note: string) {
  try {
    const { text, signatures } = splitNote(note);
    return { text, signatures, ...parseCheckpointBody(text) };
  } catch (error) {
    throw new BadRequestError(`the checkpoint is not a signed checkpoint: ${(error as Error).message}`);
  }
}

/** A followed log's key is not an Ed25519 signed-note verifier key (a configuration error). */
export class InvalidLogKeyError extends Error {}

/** The trusted keys per origin (the key's name), from the logs' verifier keys. */
async function trustedKeysByOrigin(logs: string[]): Promise<Map<string, VerifierKey[]>> {
  const byOrigin = new Map<string, VerifierKey[]>();
  for (const line of logs) {
    const key = await parseVerifierKey(line).catch((error: Error) => {
      throw new InvalidLogKeyError(
        `the log key "${line}" is not a signed-note verifier key: ${error.message}`,
      );
    });
    byOrigin.set(key.name, [...(byOrigin.get(key.name) ?? []), key]);
  }
  return byOrigin;
}

/**
 * The log's signature lines by trusted keys, each verified: `ForbiddenError` when there is none,
 * or when one of them does not verify (signed-note calls such a note malformed). Lines of
 * other keys are ignored.
 */
async function verifiedLogSignatures(
  text: string,
  signatures: NoteSignature[],
  trusted: VerifierKey[],
): Promise<NoteSignature[]> {
  const matching = signatures.flatMap((signature) => {
    const key = trusted.find(({ name, keyId }) => name === signature.name && keyId === signature.keyId);
    return key ? [{ signature, key }] : [];
  });
  if (matching.length === 0) throw new ForbiddenError('no signature by a key trusted for this origin');
  for (const { signature, key } of matching) {
    if (!(await verifyEd25519(key.publicKey, utf8(text), signature.signature))) {
      throw new ForbiddenError(`the signature by ${key.name}+${key.keyId} does not verify`);
    }
  }
  return matching.map(({ signature }) => signature);
}

/** Why the checkpoint is not consistent with the stored root (tlog-witness's 422 cases), if it is not. */
async function inconsistencyOf(
  request: AddCheckpointRequest,
  checkpoint: CheckpointBody,
  storedRoot: Uint8Array,
): Promise<string | undefined> {
  if (checkpoint.treeSize === 0 && !Buffer.from(checkpoint.rootHash).equals(EMPTY_TREE_ROOT)) {
    return 'a checkpoint of size 0 must have the root of the empty tree';
  }
  if (request.oldSize === 0 && request.proof.length > 0) {
    return 'from size 0 the consistency proof must be empty';
  }
  const consistent = await verifyConsistencyProof(
    request.oldSize,
    checkpoint.treeSize,
    storedRoot,
    checkpoint.rootHash,
    request.proof,
  );
  if (consistent) return undefined;
  return request.oldSize === checkpoint.treeSize
    ? 'the checkpoint has the size last cosigned but another root'
    : `the consistency proof from size ${request.oldSize} does not verify`;
}

/**
 * A witness over a store, following the given logs.
 *
 * @example
 * const witness = await createWitness({
 *   signer: localSigner('auditor.example/witness', 'witness-key.pem'),
 *   logs: [logVerifierKey],
 *   store: fileWitnessStore('.data/witness'),
 * });
 * const cosignature = await witness.addCheckpoint(`old 0\n\n${checkpoint}`);
 */
export async function createWitness(options: WitnessOptions): Promise<Witness> {
  const { signer, store, clock = Date.now, afterStep } = options;
  const trusted = await trustedKeysByOrigin(options.logs);
  if (trusted.size === 0) throw new Error('a witness follows at least one log');
  const publicKey = await signer.publicKey();
  const name = signer.keyName;
  const originsByHash = new Map<string, string>();
  for (const origin of trusted.keys()) originsByHash.set(toHex(await sha256(utf8(origin))), origin);

  async function addCheckpoint(body: string): Promise<string> {
    const request = parseAddCheckpointBody(body);
    const checkpoint = readCheckpoint(request.checkpoint);
    const keys = trusted.get(checkpoint.origin);
    if (!keys) throw new NotFoundError(`the witness does not follow the log ${checkpoint.origin}`);
    const logSignatures = await verifiedLogSignatures(checkpoint.text, checkpoint.signatures, keys);
    if (request.oldSize > checkpoint.treeSize) {
      throw new BadRequestError(
        `the old size ${request.oldSize} is above the checkpoint's ${checkpoint.treeSize}`,
      );
    }
    const stored = await store.read(checkpoint.origin);
    if (request.oldSize !== (stored?.treeSize ?? 0)) throw new ConflictError(stored?.treeSize ?? 0);
    const storedRoot = stored?.rootHash ?? EMPTY_TREE_ROOT;
    const inconsistency = await inconsistencyOf(request, checkpoint, storedRoot);
    if (inconsistency) {
      await options.recordInconsistency?.({
        origin: checkpoint.origin,
        reason: inconsistency,
        body,
        cosignedSize: request.oldSize,
        cosignedRoot: Buffer.from(storedRoot).toString('base64'),
      });
      throw new UnprocessableError(inconsistency);
    }
    await afterStep?.('verified');

    const timestamp = Math.floor(clock() / 1000);
    if (timestamp < 1) throw new Error('the clock is before 1970: a cosignature needs a non-zero timestamp');
    const signature = await signer.sign(cosignedMessage(checkpoint.text, timestamp));
    const cosignature = await formatCosignatureLine(name, publicKey, timestamp, signature);
    const cosigned: CosignedCheckpoint = {
      treeSize: checkpoint.treeSize,
      rootHash: checkpoint.rootHash,
      note: `${checkpoint.text}\n${logSignatures
        .map((line) => formatNoteSignature(line.name, fromHex(line.keyId), line.signature))
        .join('')}${cosignature}`,
    };
    // The check of the old size and the write are one step: a request that raced this one
    // from the same size, and was stored first, makes this one a 409.
    const outcome = await store.compareAndSet(checkpoint.origin, stored, cosigned);
    if (!outcome.stored) throw new ConflictError(outcome.current?.treeSize ?? 0);
    await afterStep?.('stored');
    return cosignature;
  }

  async function latestCheckpoint(originHash: string): Promise<string> {
    const origin = originsByHash.get(originHash);
    const stored = origin === undefined ? undefined : await store.read(origin);
    if (!stored) throw new NotFoundError('the witness never cosigned a checkpoint of that log');
    return stored.note;
  }

  return {
    name,
    verifierKey: await formatCosignerKey(name, publicKey),
    origins: [...trusted.keys()],
    addCheckpoint,
    latestCheckpoint,
  };
}
