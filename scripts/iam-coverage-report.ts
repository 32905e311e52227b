/**
 * After `npm test`: the AWS calls that the functions made under local mode's IAM check during the
 * integration, end-to-end and browser tiers (each `npm start`, and the integration tier's
 * functions, record them under `LOCAL_IAM_COVERAGE_DIRECTORY`),
 * set against the functions' synthesized policies. Prints how many distinct (function, action,
 * resource pattern) calls were made and lists every grant that no call used: a permission no
 * test exercises, to be covered by a test or taken away. Writes the same as JSON beside the
 * records, for `npm run deploy:check`. Exits 1 when no call was recorded (the check did not run).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  COVERAGE_DIRECTORY_ENVIRONMENT,
  coverageReport,
  readCoverageDirectory,
} from '../local/iam/iam-coverage.js';
import { cachedLocalStack } from '../local/synthesized/cached-local-stack.js';

async function main(): Promise<number> {
  const directory = process.env[COVERAGE_DIRECTORY_ENVIRONMENT];
  if (!directory) throw new Error(`${COVERAGE_DIRECTORY_ENVIRONMENT} is not set`);
  const records = readCoverageDirectory(directory);
  const stack = await cachedLocalStack({
    region: process.env.AWS_REGION ?? 'us-east-1',
    corsAllowedOrigins: [],
  });
  const report = coverageReport(
    records,
    stack.functions.map((each) => ({
      functionName: each.name,
      roleArn: each.roleArn,
      identityPolicies: each.policies,
    })),
  );
  writeFileSync(join(directory, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  const functionsCalling = new Set(report.calls.map((call) => call.functionName)).size;
  console.log(
    `IAM coverage: ${report.calls.length} distinct (function, action, resource pattern) calls by ` +
      `${functionsCalling} of ${stack.functions.length} functions, each allowed by the synthesized policies ` +
      '(a refused call responds 500 and fails its test)',
  );
  console.log(`IAM grants that no test's call used: ${report.unusedGrants.length}`);
  for (const grant of report.unusedGrants)
    console.log(`  ${grant.functionName} ${grant.action} ${grant.resource}`);
  return report.calls.length > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`IAM coverage report failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
