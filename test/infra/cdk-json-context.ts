/**
 * The context of `cdk.json` (feature flags and defaults), which every `cdk` command applies and
 * a test's `new App()` does not unless given it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `cdk.json`'s `context` object. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}
