/**
 * What the visitor chose to trust, kept in this browser's `localStorage` (none is a secret):
 * a verifier key entered by hand, a witness policy (c2sp.org/tlog-policy text) and a pinned
 * checkpoint. The API key is never stored here.
 */
import { parseWitnessPolicy, type WitnessPolicy } from '../../../verifier/index';

export interface PinnedCheckpoint {
  /** The signed checkpoint note, as the log published it. */
  checkpoint: string;
  origin: string;
  treeSize: number;
  rootHash: string;
  keyId: string;
  pinnedAt: string;
}

const TRUSTED_KEY = 'asset-registry-console.trusted-verifier-key';
const PINNED_CHECKPOINT = 'asset-registry-console.pinned-checkpoint';
const WITNESS_POLICY = 'asset-registry-console.witness-policy';

export const trustedVerifierKey = (): string | undefined => localStorage.getItem(TRUSTED_KEY) ?? undefined;

/** Trusts this verifier key from now on; empty forgets it (the server's key is used again). */
export function setTrustedVerifierKey(key: string): void {
  if (key.trim()) localStorage.setItem(TRUSTED_KEY, key.trim());
  else localStorage.removeItem(TRUSTED_KEY);
}

export function pinnedCheckpoint(): PinnedCheckpoint | undefined {
  try {
    const stored = localStorage.getItem(PINNED_CHECKPOINT);
    return stored ? (JSON.parse(stored) as PinnedCheckpoint) : undefined;
  } catch {
    return undefined;
  }
}

export function pinCheckpoint(pinned: PinnedCheckpoint | undefined): void {
  if (pinned) localStorage.setItem(PINNED_CHECKPOINT, JSON.stringify(pinned));
  else localStorage.removeItem(PINNED_CHECKPOINT);
}

/** The witness policy text the visitor entered, if any. */
export const witnessPolicyText = (): string | undefined => localStorage.getItem(WITNESS_POLICY) ?? undefined;

/**
 * Requires this witness policy from now on, once it parses (throws naming the line otherwise,
 * and keeps the previous one); empty forgets it (cosignatures are no longer required).
 */
export async function setWitnessPolicyText(text: string): Promise<void> {
  if (!text.trim()) {
    localStorage.removeItem(WITNESS_POLICY);
    return;
  }
  await parseWitnessPolicy(text);
  localStorage.setItem(WITNESS_POLICY, text);
}

/** The entered witness policy, parsed; undefined when none is entered. */
export async function witnessPolicy(): Promise<WitnessPolicy | undefined> {
  const text = witnessPolicyText();
  return text ? parseWitnessPolicy(text) : undefined;
}
