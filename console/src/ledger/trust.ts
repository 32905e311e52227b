/**
 * What the visitor chose to trust, kept in this browser's `localStorage` (neither is a secret):
 * a verifier key entered by hand, and a pinned checkpoint. The API key is never stored here.
 */
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
