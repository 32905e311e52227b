/**
 * C2SP tlog-policy (c2sp.org/tlog-policy): which logs a client trusts, which witnesses, and the
 * quorum of witnesses whose cosignatures make a checkpoint valid.
 *
 *   log <vkey> [<url>]
 *   witness <name> <vkey> [<url>]
 *   group <name> <k|all|any> <member>...
 *   quorum <name|none>
 *
 * Log keys are note signers (vkey type 0x01), witness keys cosigners (type 0x04,
 * `cosignature/v1`). A group or the quorum names only what earlier lines defined; each name is
 * a member at most once in the whole file; exactly one quorum line.
 */

import { equalBytes } from './bytes.js';
import { verifyCheckpoint } from './checkpoint.js';
import { parseCosignerKey, verifyCosignature } from './cosignature.js';
import { parseVerifierKey, type VerifierKey } from './signed-note.js';

interface PolicyLog {
  key: VerifierKey;
  /** The vkey as written. */
  vkey: string;
  url?: string;
}

export interface PolicyWitness extends PolicyLog {
  /** The name the policy gives it (not necessarily the key's name). */
  name: string;
}

interface PolicyGroup {
  threshold: number;
  members: string[];
}

export interface WitnessPolicy {
  logs: PolicyLog[];
  witnesses: PolicyWitness[];
  groups: Map<string, PolicyGroup>;
  /** A witness's or a group's name, or `none`. */
  quorum: string;
}

/** The quorum name that asks for no cosignature. */
const NO_QUORUM = 'none';

class PolicyError extends Error {
  constructor(lineNumber: number, message: string) {
    super(`policy line ${lineNumber}: ${message}`);
  }
}

const isForbiddenControl = (character: string) => {
  const code = character.charCodeAt(0);
  return (code < 0x20 && character !== '\t') || code === 0x7f;
};

const isDecimal = (text: string) => /^[1-9][0-9]*$/.test(text);

/** Parses a policy file; throws naming the line and what is wrong with it. */
export async function parseWitnessPolicy(text: string): Promise<WitnessPolicy> {
  const policy: WitnessPolicy = { logs: [], witnesses: [], groups: new Map(), quorum: '' };
  const defined = new Set<string>();
  const usedAsMember = new Set<string>();
  const keys: Uint8Array[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const lineNumber = index + 1;
    const fail = (message: string) => new PolicyError(lineNumber, message);
    // Tab and newline are the only control characters a policy may hold.
    if ([...line].some(isForbiddenControl)) throw fail('holds a control character');
    const words = line.split(/[ \t]+/).filter(Boolean);
    if (words.length === 0 || words[0]?.startsWith('#')) continue;
    const [keyword, ...rest] = words as [string, ...string[]];
    const newKey = async (vkey: string, parse: (vkey: string) => Promise<VerifierKey>) => {
      const key = await parse(vkey).catch((error: Error) => {
        throw fail(error.message);
      });
      if (keys.some((known) => equalBytes(known, key.publicKey))) throw fail('repeats a public key');
      keys.push(key.publicKey);
      return key;
    };
    const newName = (name: string) => {
      if (name === NO_QUORUM || defined.has(name)) throw fail(`"${name}" is already defined`);
      defined.add(name);
      return name;
    };
    switch (keyword) {
      case 'log': {
        const [vkey, url, ...extra] = rest;
        if (!vkey || extra.length > 0) throw fail('is "log <vkey> [<url>]"');
        policy.logs.push({ key: await newKey(vkey, (line) => parseVerifierKey(line)), vkey, url });
        break;
      }
      case 'witness': {
        const [name, vkey, url, ...extra] = rest;
        if (!name || !vkey || extra.length > 0) throw fail('is "witness <name> <vkey> [<url>]"');
        const key = await newKey(vkey, parseCosignerKey);
        policy.witnesses.push({ name: newName(name), key, vkey, url });
        break;
      }
      case 'group': {
        const [name, threshold, ...members] = rest;
        if (!name || !threshold || members.length === 0)
          throw fail('is "group <name> <k|all|any> <member>..."');
        for (const member of members) {
          if (!defined.has(member)) throw fail(`"${member}" is not defined on an earlier line`);
          if (usedAsMember.has(member)) throw fail(`"${member}" is already a member`);
          usedAsMember.add(member);
        }
        const k =
          threshold === 'all'
            ? members.length
            : threshold === 'any'
              ? 1
              : isDecimal(threshold)
                ? Number(threshold)
                : 0;
        if (k < 1 || k > members.length)
          throw fail(`the threshold must be all, any or 1 to ${members.length}`);
        policy.groups.set(newName(name), { threshold: k, members });
        break;
      }
      case 'quorum': {
        const [name, ...extra] = rest;
        if (!name || extra.length > 0) throw fail('is "quorum <name>"');
        if (policy.quorum) throw fail('a policy has one quorum line');
        if (name !== NO_QUORUM && !defined.has(name))
          throw fail(`"${name}" is not defined on an earlier line`);
        policy.quorum = name;
        break;
      }
      default:
        throw fail(`unknown keyword "${keyword}"`);
    }
  }
  if (!policy.quorum) throw new Error('the policy has no quorum line');
  return policy;
}

/** Whether the witnesses named in `cosigned` meet the policy's quorum. */
export function quorumMet(policy: WitnessPolicy, cosigned: ReadonlySet<string>): boolean {
  const met = (name: string): boolean => {
    const group = policy.groups.get(name);
    if (!group) return cosigned.has(name);
    return group.members.filter(met).length >= group.threshold;
  };
  return policy.quorum === NO_QUORUM || met(policy.quorum);
}

export interface PolicyVerdict {
  ok: boolean;
  /** The policy names of the witnesses whose cosignature verified. */
  cosigned: string[];
  /** The witnesses that did not cosign (the quorum may still be met without them). */
  missing: string[];
  treeSize?: number;
  /** Lowercase hex. */
  rootHash?: string;
  reason?: string;
}

/**
 * Checks a checkpoint against a policy: signed by one of its logs (or by `trustedLogKey`, for a
 * policy that lists none), and cosigned by witnesses that meet its quorum. The reason names
 * the witnesses that did not cosign when the quorum is not met.
 */
export async function verifyWitnessedCheckpoint(
  note: string,
  policy: WitnessPolicy,
  trustedLogKey?: string,
): Promise<PolicyVerdict> {
  const logKeys = [...policy.logs.map((log) => log.vkey), ...(trustedLogKey ? [trustedLogKey] : [])];
  if (logKeys.length === 0)
    return { ok: false, cosigned: [], missing: [], reason: 'the policy names no log' };
  let log: Awaited<ReturnType<typeof verifyCheckpoint>> | undefined;
  for (const key of logKeys) {
    log = await verifyCheckpoint(note, key);
    if (log.ok) break;
  }
  if (!log?.ok) return { ok: false, cosigned: [], missing: [], reason: log?.reason };
  const cosigned: string[] = [];
  const missing: string[] = [];
  for (const witness of policy.witnesses) {
    const verdict = await verifyCosignature(note, witness.key).catch(() => ({ ok: false }));
    (verdict.ok ? cosigned : missing).push(witness.name);
  }
  const ok = quorumMet(policy, new Set(cosigned));
  return {
    ok,
    cosigned,
    missing,
    treeSize: log.treeSize,
    rootHash: log.rootHash,
    reason: ok
      ? undefined
      : `the checkpoint's cosignatures do not meet the quorum ${policy.quorum}: missing ${missing.join(', ') || 'none'}`,
  };
}
