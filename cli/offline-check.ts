/**
 * What the offline checkers (`verify-bundle`, `verify-inventory`) share: their arguments (a
 * file, a verifier key line or a file holding it, `--policy <tlog-policy file>`), the lines that
 * report the checkpoint and its witnesses, and how a run ends. Neither contacts the service.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  type CheckpointVerdict,
  type PolicyVerdict,
  parseWitnessPolicy,
  type WitnessPolicy,
} from '../verifier/index.js';

export interface OfflineCheckArguments {
  file: string;
  verifierKey?: string;
  policy?: WitnessPolicy;
}

/** The usage line of a checker of `what` (a bundle, an inventory). */
const usageOf = (command: string, what: string) =>
  `Usage: ${command} <${what}> [<verifier key line, or a file holding it>] [--policy <tlog-policy file>]\n` +
  '       (the key may be left out when the policy has a "log" line)\n';

/** The checker's arguments, or undefined after printing the usage (the caller exits 2). */
export async function offlineCheckArguments(
  argv: string[],
  command: string,
  what: string,
): Promise<OfflineCheckArguments | undefined> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { policy: { type: 'string' } },
  });
  const [file, keyArgument, ...extra] = positionals;
  const policy = values.policy ? await parseWitnessPolicy(readFileSync(values.policy, 'utf8')) : undefined;
  if (!file || extra.length > 0 || (!keyArgument && !policy?.logs.length)) {
    process.stderr.write(usageOf(command, what));
    return undefined;
  }
  const verifierKey =
    keyArgument === undefined || keyArgument.includes('+')
      ? keyArgument
      : readFileSync(keyArgument, 'utf8').trim();
  return { file, verifierKey, policy };
}

/** Prints the checkpoint's verdict and, under a policy, its witnesses'. */
export function printCheckpointVerdicts(
  checkpoint: CheckpointVerdict,
  witnesses: PolicyVerdict | undefined,
  policy: WitnessPolicy | undefined,
  suffix = '',
): void {
  console.log(
    checkpoint.ok
      ? `checkpoint: ok (${checkpoint.origin}, tree size ${checkpoint.treeSize}, key ${checkpoint.keyId})${suffix}`
      : `checkpoint: FAILED: ${checkpoint.reason}`,
  );
  if (!witnesses) return;
  const cosigned = witnesses.cosigned.join(', ') || 'none';
  console.log(
    witnesses.ok
      ? `witnesses: ok (quorum ${policy?.quorum}; cosigned by ${cosigned})`
      : `witnesses: FAILED: ${witnesses.reason} (cosigned by ${cosigned})`,
  );
}

/** Runs a checker's main: its exit code, or 2 with the message when it throws (an unreadable input). */
export function runOfflineCheck(command: string, main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${command}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
