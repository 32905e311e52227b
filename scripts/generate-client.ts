/**
 * `npm run client`: regenerates `client/openapi-types.ts` from the OpenAPI document the code
 * serves; `--from <url>` reads a served one instead (`http://127.0.0.1:3000/v2/openapi.json`).
 * `--check [file]` only compares (the committed file by default), and exits 1 when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, generateClientTypes } from './typed-client.js';

async function main(): Promise<void> {
  const fromAt = process.argv.indexOf('--from');
  const generated = await generateClientTypes(fromAt >= 0 ? process.argv[fromAt + 1] : undefined);
  const checkAt = process.argv.indexOf('--check');
  if (checkAt >= 0) {
    const checked = process.argv[checkAt + 1] ?? CLIENT_TYPES_FILE;
    if (readFileSync(checked, 'utf8') !== generated) {
      console.error(`${checked} is stale: run npm run client`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(CLIENT_TYPES_FILE, generated);
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
