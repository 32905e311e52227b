/**
 * The client side of C2SP tlog-witness (c2sp.org/tlog-witness, "add-checkpoint"): the log asks
 * each witness of its policy to cosign a signed checkpoint, proving it consistent with the size
 * that witness cosigned last. Witnesses are asked in parallel, each with its own timeout, so a
 * witness that is down delays nothing but its own cosignature. Every answer the spec defines
 * is told apart, logged and counted:
 * - 200: the body's signature lines; only cosignatures that verify for that witness's key
 *   (`verifyCosignature`, c2sp.org/tlog-cosignature) are kept;
 * - 409 (`text/x.tlog.size`): the witness cosigned another size; asked again once from that
 *   size, with a fresh consistency proof;
 * - 400, 403, 404, 422, any other status, a timeout or a network failure: no cosignature.
 * Requests go through the global `fetch`, whose connections are kept alive between requests.
 */
import { logger, metrics } from '#shared/observability.js';
import {
  type PolicyWitness,
  splitNote,
  toBase64,
  verifyCosignature,
  type WitnessPolicy,
} from '../../../verifier/index.js';

/** The spec's limit on consistency proof lines in a request. */
const MAX_PROOF_LINES = 63;

/** What one witness's request came to. */
type WitnessOutcome =
  | 'cosigned'
  /** 200, but no line of the body is a valid cosignature of this witness's key. */
  | 'invalid-cosignature'
  /** 409: the witness has cosigned another size (`witnessSize`). */
  | 'conflict'
  /** 409 with a size larger than this checkpoint's, or a second 409: not asked again. */
  | 'conflict-unresolved'
  | 'bad-request'
  | 'forbidden'
  | 'unknown-log'
  | 'inconsistent'
  | 'other-status'
  | 'timeout'
  | 'unreachable';

/** The metric each outcome counts in (`WitnessCosigned`, `WitnessTimeout`, ...). */
const WITNESS_OUTCOME_METRICS: Record<WitnessOutcome, string> = {
  cosigned: 'WitnessCosigned',
  'invalid-cosignature': 'WitnessInvalidCosignature',
  conflict: 'WitnessConflict',
  'conflict-unresolved': 'WitnessConflictUnresolved',
  'bad-request': 'WitnessBadRequest',
  forbidden: 'WitnessForbidden',
  'unknown-log': 'WitnessUnknownLog',
  inconsistent: 'WitnessInconsistent',
  'other-status': 'WitnessOtherStatus',
  timeout: 'WitnessTimeout',
  unreachable: 'WitnessUnreachable',
};

const OUTCOME_OF_STATUS: Record<number, 'bad-request' | 'forbidden' | 'unknown-log' | 'inconsistent'> = {
  400: 'bad-request',
  403: 'forbidden',
  404: 'unknown-log',
  422: 'inconsistent',
};

/**
 * The add-checkpoint request body: `old <size>`, one base64 consistency proof hash a line, an
 * empty line, then the signed checkpoint.
 *
 * @example
 * formatAddCheckpointBody(0, [], checkpoint) // 'old 0\n\n' + checkpoint
 */
export function formatAddCheckpointBody(oldSize: number, proof: Uint8Array[], checkpoint: string): string {
  if (!Number.isSafeInteger(oldSize) || oldSize < 0) throw new Error(`The old size ${oldSize} is not a size`);
  if (proof.length > MAX_PROOF_LINES)
    throw new Error(`A consistency proof of ${proof.length} lines is too long`);
  return `old ${oldSize}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${checkpoint}`;
}

/** The size in a 409's `text/x.tlog.size` body (a decimal and a newline), or undefined when it holds none. */
export function parseConflictSize(body: string): number | undefined {
  const match = /^(0|[1-9][0-9]{0,15})\n?$/.exec(body);
  const size = match ? Number(match[1]) : undefined;
  return size !== undefined && Number.isSafeInteger(size) ? size : undefined;
}

/** The lines of a 200's body that are note signature lines (`— <name> <base64>`), each with its newline. */
export function parseCosignatureLines(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => /^\u2014 \S+ [A-Za-z0-9+/]+=*$/.test(line))
    .map((line) => `${line}\n`);
}

/** What a witness answered to one request. */
type WitnessAnswer =
  | { outcome: 'cosigned'; lines: string[] }
  | { outcome: 'conflict'; witnessSize: number }
  | { outcome: Exclude<WitnessOutcome, 'cosigned' | 'conflict'>; status?: number; detail?: string };

/** How to reach witnesses; `fetch` is the global one unless a test gives another. */
export interface WitnessClientOptions {
  /** Per request. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The C2SP submission URL of a witness whose policy URL is its submission prefix. */
/** The submission prefix without its trailing slashes (a loop: `/\/+$/` is quadratic on many). */
function addCheckpointUrl(prefix: string): string {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === '/') end--;
  return `${prefix.slice(0, end)}/add-checkpoint`;
}

/** Sends one add-checkpoint request and tells its answer apart. */
async function askWitness(
  witness: PolicyWitness & { url: string },
  body: string,
  checkpoint: string,
  options: WitnessClientOptions,
): Promise<WitnessAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(addCheckpointUrl(witness.url), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    return name === 'TimeoutError' || name === 'AbortError'
      ? { outcome: 'timeout' }
      : { outcome: 'unreachable', detail: String((error as Error).cause ?? error) };
  }
  if (response.status === 200) {
    const lines: string[] = [];
    for (const line of parseCosignatureLines(text)) {
      const verdict = await verifyCosignature(`${checkpoint}${line}`, witness.key).catch(() => undefined);
      if (verdict?.ok) lines.push(line);
    }
    return lines.length > 0
      ? { outcome: 'cosigned', lines }
      : { outcome: 'invalid-cosignature', status: 200 };
  }
  if (response.status === 409) {
    const witnessSize = parseConflictSize(text);
    return witnessSize === undefined
      ? { outcome: 'conflict-unresolved', status: 409, detail: 'the body holds no tree size' }
      : { outcome: 'conflict', witnessSize };
  }
  return { outcome: OUTCOME_OF_STATUS[response.status] ?? 'other-status', status: response.status };
}

/** The consistency proof from `oldSize` to the checkpoint's size, as the witness needs it. */
export type ProofFrom = (oldSize: number) => Promise<Uint8Array[]>;

export interface WitnessResult {
  /** The witness's name in the policy. */
  name: string;
  outcome: WitnessOutcome;
  /** Its verified cosignature lines (for `cosigned`). */
  lines: string[];
  /** The size it holds now as far as the log knows (to send as `old` next time), if known. */
  witnessSize?: number;
}

/**
 * Asks one witness to cosign `checkpoint` (of `treeSize` leaves), from the size it cosigned
 * last (`knownSize`, 0 when unknown); after a 409, once more from the size it answered.
 */
export async function requestCosignature(
  witness: PolicyWitness & { url: string },
  request: { checkpoint: string; treeSize: number; knownSize: number; proofFrom: ProofFrom },
  options: WitnessClientOptions,
): Promise<WitnessResult> {
  const { checkpoint, treeSize, proofFrom } = request;
  const ask = async (oldSize: number) =>
    askWitness(
      witness,
      formatAddCheckpointBody(oldSize, oldSize === 0 ? [] : await proofFrom(oldSize), checkpoint),
      checkpoint,
      options,
    );
  // A size beyond this checkpoint (a state written by another log, or lost) cannot be proven from.
  const oldSize = request.knownSize <= treeSize ? request.knownSize : 0;
  let answer = await ask(oldSize);
  const attempts: WitnessAnswer[] = [answer];
  if (answer.outcome === 'conflict') {
    const witnessSize = answer.witnessSize;
    answer =
      witnessSize > treeSize
        ? {
            outcome: 'conflict-unresolved',
            status: 409,
            detail: `the witness cosigned size ${witnessSize}, beyond this checkpoint's ${treeSize}`,
          }
        : await ask(witnessSize);
    attempts.push(answer);
    if (answer.outcome === 'conflict') {
      answer = {
        outcome: 'conflict-unresolved',
        status: 409,
        detail: `a second 409 (size ${answer.witnessSize})`,
      };
    }
  }
  for (const attempt of attempts) {
    metrics.addMetric(WITNESS_OUTCOME_METRICS[attempt.outcome], 'Count', 1);
    const fields = {
      witness: witness.name,
      url: witness.url,
      treeSize,
      outcome: attempt.outcome,
      ...(attempt.outcome === 'conflict' ? { witnessSize: attempt.witnessSize } : {}),
      ...(attempt.outcome !== 'cosigned' && attempt.outcome !== 'conflict'
        ? { status: attempt.status, detail: attempt.detail }
        : {}),
    };
    if (attempt.outcome === 'cosigned') logger.info('Witness cosigned the checkpoint', fields);
    else if (attempt.outcome === 'conflict') logger.info('Witness holds another size', fields);
    else logger.warn('Witness gave no cosignature', fields);
  }
  const conflictSizes = attempts.flatMap((attempt) =>
    attempt.outcome === 'conflict' ? [attempt.witnessSize] : [],
  );
  return {
    name: witness.name,
    outcome: answer.outcome,
    lines: answer.outcome === 'cosigned' ? answer.lines : [],
    witnessSize: answer.outcome === 'cosigned' ? treeSize : (conflictSizes.at(-1) ?? request.knownSize),
  };
}

/** The witnesses of a policy the log calls: those with a URL. */
export const callableWitnesses = (policy: WitnessPolicy): (PolicyWitness & { url: string })[] =>
  policy.witnesses.filter((witness): witness is PolicyWitness & { url: string } => witness.url !== undefined);

/**
 * Asks every witness of the policy that has a URL (but those named in `skip`), in parallel, to
 * cosign `checkpoint`; `knownSizes` holds the size each cosigned last.
 */
export async function collectCosignatures(
  policy: WitnessPolicy,
  request: {
    checkpoint: string;
    treeSize: number;
    knownSizes: Record<string, number>;
    proofFrom: ProofFrom;
    skip?: ReadonlySet<string>;
  },
  options: WitnessClientOptions,
): Promise<WitnessResult[]> {
  // The proof from one size is computed once, whichever witnesses need it.
  const proofs = new Map<number, Promise<Uint8Array[]>>();
  const proofFrom: ProofFrom = (oldSize) => {
    if (!proofs.has(oldSize)) proofs.set(oldSize, request.proofFrom(oldSize));
    return proofs.get(oldSize) as Promise<Uint8Array[]>;
  };
  return Promise.all(
    callableWitnesses(policy)
      .filter((witness) => !request.skip?.has(witness.name))
      .map((witness) =>
        requestCosignature(
          witness,
          { ...request, knownSize: request.knownSizes[witness.name] ?? 0, proofFrom },
          options,
        ),
      ),
  );
}

/** The checkpoint with the witnesses' cosignature lines after its own: one signed note. */
export function cosignedNote(checkpoint: string, results: WitnessResult[]): string {
  // Parsed to be sure the checkpoint is a note before lines are added to it.
  splitNote(checkpoint);
  return `${checkpoint}${results.flatMap((result) => result.lines).join('')}`;
}
