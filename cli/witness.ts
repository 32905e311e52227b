/**
 * A witness anyone can run (C2SP tlog-witness): it follows the logs given by their verifier
 * keys, keeps its key and the checkpoints it cosigned in a data folder, and serves
 * `POST /add-checkpoint` and `GET /<origin hash>/checkpoint` on 127.0.0.1.
 *   npm run witness -- --port <port> --data <dir> --log '<log verifier key>' [--log …] [--name <name>]
 * The first line of output is the witness's cosigner verifier key (type 0x04), the second its URL.
 *   npm run witness -- --print-kms-key <KMS key id> --name <name>
 * prints the verifier key of a deployed witness (`lib/witness/witness-stack.ts`) from its KMS key.
 * Exit code 2 for a usage error. See docs/witness.md.
 */
import { parseArgs } from 'node:util';
import { kmsSigner } from '../lambdas/domain/ledger/log-signer.js';
import { formatCosignerKey, isValidKeyName } from '../verifier/index.js';
import { DataFolderInUseError } from '../witness/data-folder-lock.js';
import { defaultWitnessName, startWitnessServer } from '../witness/start-witness-server.js';
import { InvalidLogKeyError, type WitnessStep } from '../witness/witness.js';

const USAGE =
  "Usage: npm run witness -- --port <port> --data <dir> --log '<log verifier key>' [--log <key> …] [--name <witness name>]\n" +
  '  --port  TCP port on 127.0.0.1 (0 picks a free one)\n' +
  '  --data  folder of the witness key (made at first start) and of the checkpoints it cosigned\n' +
  '  --log   a followed log: its signed-note verifier key, as GET /v2/ledger/key answers; repeatable\n' +
  `  --name  the witness's key name (default: ${defaultWitnessName()})\n` +
  'Usage: npm run witness -- --print-kms-key <KMS key id> --name <witness name>\n' +
  "  prints a deployed witness's verifier key (the stack's outputs WitnessKeyId and WitnessName)";

/**
 * A test hook: `WITNESS_STOP_AFTER_STEP=verified` (or `stored`) makes the witness print
 * `reached <step>` and hang there, so that a test can SIGKILL it at that point.
 */
const STOP_AFTER_STEP_ENVIRONMENT = 'WITNESS_STOP_AFTER_STEP';

class UsageError extends Error {}

function parseOrUsage(argv: string[]) {
  try {
    return parse(argv).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function readArguments(argv: string[]) {
  const values = parseOrUsage(argv);
  const { port, data, log = [], name = defaultWitnessName() } = values;
  if (port === undefined || !/^\d{1,5}$/.test(port) || Number(port) > 65_535) {
    throw new UsageError('--port is a TCP port number (0 to 65535)');
  }
  if (!data) throw new UsageError('--data <dir> is required');
  if (log.length === 0) throw new UsageError('at least one --log <log verifier key> is required');
  if (!isValidKeyName(name)) throw new UsageError('--name may not be empty nor hold white space or "+"');
  return { port: Number(port), dataDir: data, logs: log, name };
}

const parse = (argv: string[]) =>
  parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      log: { type: 'string', multiple: true },
      name: { type: 'string' },
      'print-kms-key': { type: 'string' },
    },
  });

/** The verifier key of a witness whose key is in KMS, read with the caller's AWS credentials. */
async function printKmsKey(keyId: string, name: string | undefined): Promise<void> {
  if (!name || !isValidKeyName(name)) throw new UsageError('--print-kms-key needs the witness --name');
  const signer = kmsSigner(name, keyId);
  process.stdout.write(`${await formatCosignerKey(name, await signer.publicKey())}\n`);
}

async function main(argv: string[]): Promise<void> {
  const kmsKeyId = parseOrUsage(argv)['print-kms-key'];
  if (kmsKeyId !== undefined) return printKmsKey(kmsKeyId, parseOrUsage(argv).name);
  const options = readArguments(argv);
  const stopAfter = process.env[STOP_AFTER_STEP_ENVIRONMENT];
  const afterStep = stopAfter
    ? async (step: WitnessStep) => {
        if (step !== stopAfter) return;
        process.stdout.write(`reached ${step}\n`);
        await new Promise(() => {});
      }
    : undefined;
  const server = await startWitnessServer({ ...options, afterStep }).catch((error: Error) => {
    // A log key that is no verifier key is the caller's mistake; anything else is not.
    throw error instanceof InvalidLogKeyError ? new UsageError(error.message) : error;
  });
  // Handlers before the output: whoever reads the output may signal at once, and a signal
  // without a handler kills the process before it releases its data folder.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close().then(() => process.exit(0));
    });
  }
  process.stdout.write(`${server.verifierKey}\n${server.url}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof DataFolderInUseError) {
    process.stderr.write(`witness: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`witness: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
