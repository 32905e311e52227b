/**
 * Writes the OpenAPI document exactly as `GET /v2/openapi.json` serves it locally (stage prefix
 * none), for the linters and the client generator: `tsx scripts/write-openapi.ts <file>`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from '../lambdas/openapi/openapi-document.js';

const target = process.argv[2];
if (!target) {
  console.error('usage: tsx scripts/write-openapi.ts <file>');
  process.exit(2);
}
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(''), null, 2)}\n`);
