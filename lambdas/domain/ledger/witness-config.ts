/**
 * The log's witness policy (C2SP tlog-policy, parsed by `verifier/witness-policy.ts`): which
 * witnesses the sequencer asks to cosign each checkpoint (those with a URL) and the quorum
 * their cosignatures must meet before a checkpoint is published. Without a policy the log
 * publishes each checkpoint as it signs it.
 * - In AWS the policy's text is in `LEDGER_WITNESS_POLICY` (context `witnessPolicyFile` names
 *   the file at synth; `lib/ledger-log.ts` puts its text there);
 * - locally `LEDGER_WITNESS_POLICY_FILE` names the file;
 * - `LEDGER_WITNESS_TIMEOUT_MS` bounds each request to a witness (3,000 ms by default; context
 *   `witnessTimeoutMs` in AWS).
 */
import { readFileSync } from 'node:fs';
import {
  formatVerifierKey,
  parseWitnessPolicy,
  quorumMet,
  type WitnessPolicy,
} from '../../../verifier/index.js';
import type { LogSigner } from './log-signer.js';

export const WITNESS_POLICY_ENVIRONMENT = 'LEDGER_WITNESS_POLICY';
export const WITNESS_POLICY_FILE_ENVIRONMENT = 'LEDGER_WITNESS_POLICY_FILE';
export const WITNESS_TIMEOUT_ENVIRONMENT = 'LEDGER_WITNESS_TIMEOUT_MS';
/** Per request to a witness: a third of the shortest lease (12 s at a 10 s bound) is 4 s. */
const DEFAULT_WITNESS_TIMEOUT_MS = 3000;

/** What the sequencer needs to have its checkpoints witnessed. */
export interface Witnessing {
  policy: WitnessPolicy;
  /** Per request to a witness. */
  timeoutMs: number;
  /** The global fetch unless a test gives another. */
  fetch?: typeof fetch;
  /** How long an unreachable witness is left out while the others meet the quorum (30 s unless a test says). */
  restMs?: number;
}

/** Thrown when a policy cannot be the log's: the message says why. */
class WitnessPolicyError extends Error {}

/**
 * Parses and checks a policy for this log: it must parse, its witnesses with a URL (the ones
 * the log calls) must be able to meet its quorum, and if it names logs, one of them must be
 * this log's key (`logVerifierKey`, when known: at synth the KMS key is not).
 */
export async function checkWitnessPolicy(text: string, logVerifierKey?: string): Promise<WitnessPolicy> {
  const policy = await parseWitnessPolicy(text).catch((error: Error) => {
    throw new WitnessPolicyError(`The witness policy is invalid: ${error.message}`);
  });
  const callable = policy.witnesses.filter((witness) => witness.url !== undefined);
  if (callable.length === 0) {
    throw new WitnessPolicyError('The witness policy names no witness with a URL: the log would call none');
  }
  if (!quorumMet(policy, new Set(callable.map((witness) => witness.name)))) {
    throw new WitnessPolicyError(
      `The witnesses with a URL (${callable.map((witness) => witness.name).join(', ')}) cannot meet ` +
        `the quorum ${policy.quorum}: no checkpoint would ever be published`,
    );
  }
  for (const witness of callable) {
    if (!/^https?:\/\/[^\s]+$/.test(witness.url as string)) {
      throw new WitnessPolicyError(`The URL of witness ${witness.name} is not an http(s) URL`);
    }
  }
  if (logVerifierKey && policy.logs.length > 0 && !policy.logs.some((log) => log.vkey === logVerifierKey)) {
    throw new WitnessPolicyError(
      `The witness policy names logs, but not this one (${logVerifierKey}): add "log ${logVerifierKey}"`,
    );
  }
  return policy;
}

/** The policy text this process is configured with, if any. */
function witnessPolicyText(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const text = environment[WITNESS_POLICY_ENVIRONMENT];
  if (text) return text;
  const file = environment[WITNESS_POLICY_FILE_ENVIRONMENT];
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new WitnessPolicyError(
      `${WITNESS_POLICY_FILE_ENVIRONMENT} names ${file}, which cannot be read: ${(error as Error).message}`,
    );
  }
}

/**
 * A per-witness timeout, checked: whole milliseconds, at least 100, and short enough that a
 * cycle asking a witness twice (a 409, then again) ends well within the lease.
 */
export function checkWitnessTimeoutMs(given: string | number, leaseSeconds: number, name: string): number {
  const value = Number(given);
  const most = Math.floor((leaseSeconds * 1000) / 3);
  if (!Number.isInteger(value) || value < 100 || value > most) {
    throw new WitnessPolicyError(
      `${name} must be a whole number of milliseconds from 100 to ${most} (a third of the ` +
        `${leaseSeconds} s lease), not "${given}"`,
    );
  }
  return value;
}

/**
 * The witnessing this process is configured with (undefined without a policy), checked against
 * the signer's key.
 */
export async function witnessingFromEnvironment(
  signer: LogSigner,
  leaseSeconds: number,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<Witnessing | undefined> {
  const text = witnessPolicyText(environment);
  if (text === undefined) return undefined;
  const logKey = await formatVerifierKey(signer.keyName, await signer.publicKey());
  const timeout = environment[WITNESS_TIMEOUT_ENVIRONMENT];
  return {
    policy: await checkWitnessPolicy(text, logKey),
    timeoutMs: timeout
      ? checkWitnessTimeoutMs(timeout, leaseSeconds, WITNESS_TIMEOUT_ENVIRONMENT)
      : DEFAULT_WITNESS_TIMEOUT_MS,
  };
}
