/**
 * `npm run deploy:check [-- -c key=value ...]`: whether a deploy will work, without AWS. It
 * synthesizes every stack as `cdk deploy` would (with `cdk.json`'s context and the `-c` values
 * given), then:
 * 1. validates every resource of every template against the CloudFormation resource schemas;
 * 2. runs cdk-nag's AWS Solutions checks;
 * 3. compares the stateful resources with the committed snapshot (no replacement, all retained);
 * 4. reports the IAM coverage of the last `npm test` (every AWS call its functions made was
 *    allowed by the synthesized policies; the grants no call used);
 * 5. prints what a first deploy creates, what `cdk destroy` keeps, and the monthly cost model.
 * It exits 1 when a check of 1-3 fails.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AwsSolutionsChecks } from 'cdk-nag';
import { projectRoot } from '../../lib/project-paths.js';
import { cdkJsonContext, synthesizeStack } from '../../lib/synthesized-stack.js';
import { contextFromArguments } from '../../local/context-arguments.js';
import type { CoverageReport } from '../../local/iam/iam-coverage.js';
import { benchFigures } from './bench-figures.js';
import { costModel, formatCostModel } from './cost-model.js';
import {
  compareWithSnapshot,
  deployInventory,
  retainedOnDestroy,
  type StatefulSnapshot,
  statefulResourcesOf,
  unretained,
} from './stateful-resources.js';
import { synthesizedTemplates } from './synthesized-templates.js';
import { validateTemplates } from './template-validation.js';

/** Where `npm test` collects the AWS calls local mode allowed, and its report (scripts/test.sh). */
export const IAM_COVERAGE_DIRECTORY = join(projectRoot, '.cache', 'iam-coverage');
const SNAPSHOT_FILE = join(projectRoot, 'test', 'infra', 'stateful-resources.snapshot.json');

const heading = (title: string) => console.log(`\n== ${title}`);

async function main(): Promise<number> {
  const context = contextFromArguments(process.argv.slice(2));
  let failed = 0;
  const check = (title: string, problems: readonly string[]) => {
    console.log(problems.length === 0 ? `ok: ${title}` : `FAIL: ${title}\n  ${problems.join('\n  ')}`);
    if (problems.length > 0) failed++;
  };

  heading(`Synthesis (context ${JSON.stringify(context)})`);
  const templates = synthesizedTemplates(context);
  console.log(`${templates.length} templates: ${templates.map((each) => each.stackName).join(', ')}`);

  heading('Checks');
  check(
    'every resource matches its CloudFormation resource schema',
    validateTemplates(templates).map(
      (finding) =>
        `${finding.stackName} ${finding.logicalId} (${finding.resourceType}) ${finding.path}: ${finding.message}`,
    ),
  );
  const nag = new AwsSolutionsChecks().validateScope(synthesizeStack(context).stack);
  check(
    "cdk-nag's AWS Solutions checks leave no finding open",
    nag.violations.map(
      (violation) =>
        `${violation.ruleName}: ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`,
    ),
  );
  // A trial stack keeps nothing by design, and its ledger bucket's lock differs from the snapshot's.
  if (context.trial === 'true') {
    console.log('skipped in trial mode: stateful resources retained and unchanged (a trial deletes them)');
  } else {
    const stateful = statefulResourcesOf(templates);
    const snapshot = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as StatefulSnapshot;
    // The context the templates were synthesized with: what the snapshot recorded for it is expected.
    const synthesisContext = { ...cdkJsonContext(), ...context };
    check(
      'no stateful resource is replaced, and each is retained (or says why not)',
      [...unretained(stateful), ...compareWithSnapshot(stateful, snapshot, synthesisContext)].map(
        (finding) => finding.message,
      ),
    );
  }

  heading('IAM: the AWS calls of the last npm test (local mode checks each against its role)');
  const reportFile = join(IAM_COVERAGE_DIRECTORY, 'report.json');
  if (!existsSync(reportFile)) {
    console.log(`No report at ${reportFile}: run npm test first.`);
  } else {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as CoverageReport;
    console.log(
      `${report.calls.length} distinct (function, action, resource pattern) calls, every one allowed; ` +
        `${report.unusedGrants.length} grants no call used:`,
    );
    for (const grant of report.unusedGrants)
      console.log(`  ${grant.functionName} ${grant.action} ${grant.resource}`);
  }

  heading('What a first deploy creates');
  console.table(deployInventory(templates));
  heading('What cdk destroy keeps');
  const retained = retainedOnDestroy(templates);
  console.log(retained.length === 0 ? 'nothing (trial mode)' : '');
  for (const resource of retained)
    console.log(`  ${resource.stackName} ${resource.type} ${resource.path ?? resource.logicalId}`);

  heading('Monthly cost');
  console.log(formatCostModel(costModel(templates, benchFigures())));

  console.log(failed === 0 ? '\nDeploy check: ok' : `\nDeploy check: ${failed} check(s) failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`deploy:check failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
