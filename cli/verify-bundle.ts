/**
 * The standalone offline verifier: `node verify-bundle.mjs <bundle.json> <verifier key>` (or
 * `npm run verify-bundle -- ...` in this repository). Built into one file with no dependency
 * but Node by `npm run build:verifier` (`dist/verify-bundle.mjs`). Prints one line per event
 * and exits 1 when anything fails; it never contacts the service.
 */
import { readFileSync } from 'node:fs';
import { type LedgerBundle, verifyBundle } from '../verifier/index.js';

async function main(args: string[]): Promise<number> {
  const [bundleFile, keyArgument] = args;
  if (!bundleFile || !keyArgument) {
    process.stderr.write('Usage: verify-bundle <bundle.json> <verifier key line, or a file holding it>\n');
    return 2;
  }
  const key = keyArgument.includes('+') ? keyArgument : readFileSync(keyArgument, 'utf8').trim();
  const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as LedgerBundle;
  const verdict = await verifyBundle(bundle, key);
  const { checkpoint } = verdict;
  console.log(
    checkpoint.ok
      ? `checkpoint: ok (${checkpoint.origin}, tree size ${checkpoint.treeSize}, key ${checkpoint.keyId})`
      : `checkpoint: FAILED: ${checkpoint.reason}`,
  );
  for (const event of verdict.events) {
    console.log(`event ${event.sequence} ${event.hash}: ${event.ok ? 'ok' : `FAILED: ${event.reason}`}`);
  }
  console.log(verdict.ok ? 'VALID' : 'INVALID');
  return verdict.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verify-bundle: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
