/**
 * The stack's monthly cost model from AWS's public prices (`aws-prices.ts`): what it costs idle
 * (`idle-cost.ts`) and what a million calls of each operation group cost (`operation-cost.ts`),
 * derived from the synthesized templates and the bench's committed figures. `npm run
 * deploy:check` prints it; run alone it prints it too, and `--write-doc` writes `docs/cost.md`:
 *
 *   npx tsx scripts/deploy-check/cost-model.ts [--write-doc]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_PRICES, type Price } from './aws-prices.js';
import { type BenchFigures, benchFigures } from './bench-figures.js';
import { IDLE_SQS_LONG_POLL_SECONDS, type IdleCost, idleCost, RUN_SECONDS_ENVIRONMENT } from './idle-cost.js';
import {
  type AuthorizerFacts,
  type GroupCost,
  type OperationCost,
  operationCosts,
} from './operation-cost.js';
import { type StackTemplate, synthesizedTemplates } from './synthesized-templates.js';

const REPOSITORY_ROOT = join(__dirname, '..', '..');
/** Where `--write-doc` writes the model. */
export const COST_DOC_FILE = join(REPOSITORY_ROOT, 'docs', 'cost.md');
/** What the model is computed from: a change here changes the figures. */
const MODEL_INPUTS = ['bin', 'lib', 'lambdas', 'cdk.json', 'bench/RESULTS.md', 'scripts/deploy-check'];

export interface CostModel {
  idle: IdleCost;
  operations: OperationCost[];
  groups: GroupCost[];
  authorizers: AuthorizerFacts[];
  /** Where the durations and DynamoDB/S3 calls come from. */
  figuresSource: string;
}

/**
 * The cost model of the stack whose templates are given, with the bench's figures.
 *
 * @example
 * const model = costModel(synthesizedTemplates(), benchFigures());
 * console.log(formatCostModel(model));
 */
export function costModel(templates: readonly StackTemplate[], figures: BenchFigures): CostModel {
  return {
    idle: idleCost(templates, figures),
    ...operationCosts(templates, figures),
    figuresSource: figures.source,
  };
}

/** `$0.0123`: small sums keep four decimals, larger ones two. */
export const usd = (amount: number): string =>
  `$${amount.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: Math.abs(amount) < 1 ? 4 : 2,
  })}`;

const count = (value: number): string => Math.round(value).toLocaleString('en-US');

/**
 * A unit price as AWS states it: `$0.10 per alarm metric-month`, `$0.20 per million requests`
 * (prices under a cent per unit, but for GB-seconds), `$0.0000133334 per GB-second`.
 */
export function formatPrice(price: Price): string {
  if (price.usd >= 0.01) return `${usd(price.usd)} per ${price.unit}`;
  if (price.unit === 'GB-second') return `$${price.usd} per ${price.unit}`;
  return `${usd(price.usd * 1e6)} per million ${price.unit}s`;
}

/** The operations ordered by group (in the order of `groups`), each group's in template order. */
const byGroup = (model: CostModel): OperationCost[] => model.groups.flatMap((group) => group.operations);

/** The model as plain-text tables for the console. */
export function formatCostModel(model: CostModel): string {
  const idleRows = model.idle.lines.map((line) => [
    line.item,
    count(line.quantity),
    line.price.unit,
    usd(line.usdPerMonth),
  ]);
  const storageRows = model.idle.storage.map((line) => [
    line.item,
    String(line.resources.length),
    `${usd(line.usdPerGbMonth)}/GB`,
  ]);
  const groupRows = model.groups.map((group) => [
    group.group,
    String(group.operations.length),
    usd(group.meanUsdPerMillion),
    `${usd(group.cheapest.usdPerMillion.total)} – ${usd(group.dearest.usdPerMillion.total)}`,
    group.incomplete.length > 0 ? `${group.incomplete.length} not measured` : '',
  ]);
  return [
    `Monthly cost model (AWS list prices, us-east-1, no free tier; figures: ${model.figuresSource})`,
    '',
    `Idle, with no request at all: ${usd(model.idle.usdPerMonth)} a month`,
    textTable(['item', 'quantity', 'unit', 'USD/month'], idleRows),
    '',
    'Plus, per GB stored a month:',
    textTable(['store', 'resources', 'price'], storageRows),
    '',
    'Per million calls of each operation group (equal mix of its operations):',
    textTable(['group', 'operations', 'USD/million', 'cheapest – dearest', 'bench'], groupRows),
    ...model.idle.warnings.map((warning) => `! ${warning}`),
  ].join('\n');
}

/** A plain-text table, columns padded; numbers (anything starting with a digit or `$`) right-aligned. */
function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) =>
        /^[$\d]/.test(cell) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [render(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(render)].join(
    '\n',
  );
}

/** A Markdown table. */
function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * The commit the model's inputs come from (`b5c62ed`, `b5c62ed with uncommitted changes`), or
 * undefined outside a git checkout.
 */
export function inputsRevision(): string | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: REPOSITORY_ROOT, encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const changed = git('status', '--porcelain', '--', ...MODEL_INPUTS);
    return changed ? `${commit} with uncommitted changes` : commit;
  } catch {
    return undefined;
  }
}

/** The model as the Markdown of `docs/cost.md`; `revision` names the commit it was computed at. */
export function costModelMarkdown(model: CostModel, revision?: string): string {
  const idleRows = model.idle.lines.map((line) => [
    line.item,
    count(line.quantity),
    formatPrice(line.price),
    usd(line.usdPerMonth),
    line.basis,
  ]);
  const storageRows = model.idle.storage.map((line) => [
    line.item,
    String(line.resources.length),
    `${usd(line.usdPerGbMonth)} per GB-month`,
  ]);
  const groupRows = model.groups.map((group) => [
    group.group,
    String(group.operations.length),
    usd(group.meanUsdPerMillion),
    `${group.cheapest.operationId} ${usd(group.cheapest.usdPerMillion.total)}`,
    `${group.dearest.operationId} ${usd(group.dearest.usdPerMillion.total)}`,
    group.incomplete.length > 0 ? group.incomplete.join(', ') : '',
  ]);
  const operationRows = byGroup(model).map((operation) => [
    operation.group,
    operation.operationId,
    operation.durationMs === undefined ? '—' : String(operation.durationMs),
    usd(operation.usdPerMillion.apiGateway),
    usd(operation.usdPerMillion.authorizer),
    usd(operation.usdPerMillion.lambda),
    usd(operation.usdPerMillion.dynamoDb),
    usd(operation.usdPerMillion.s3),
    usd(operation.usdPerMillion.kms + operation.usdPerMillion.sqs + operation.usdPerMillion.eventBridge),
    usd(operation.usdPerMillion.total),
    operation.unmeasured.join(', '),
  ]);
  const priceRows = Object.entries(ALL_PRICES).map(([name, price]) => [
    `\`${name}\``,
    formatPrice(price),
    price.source,
    price.readOn,
    price.checked,
  ]);
  const authorizerLines = model.authorizers.map(
    (authorizer) =>
      `- \`${authorizer.functionPath}\` (${authorizer.memoryMb} MB ${authorizer.architecture}), result cache TTL ` +
      `${authorizer.resultTtlSeconds} s: ${authorizer.resultTtlSeconds === 0 ? 'it runs on every call' : 'counted on every call (an upper bound)'}; ` +
      (authorizer.durationMs === undefined
        ? 'its duration is not measured by the bench, so only its requests are priced, not its GB-seconds or its DynamoDB read.'
        : `its duration ${authorizer.durationMs} ms.`),
  );
  return `# What the stack costs

For whoever decides whether to deploy the stack, or wants to know what it costs idle and per
call: a monthly cost model from AWS's public list prices (US East (N. Virginia), on-demand, no
free tier), computed from the synthesized templates and the bench's committed figures. It is
written by \`npx tsx scripts/deploy-check/cost-model.ts --write-doc\` (\`npm run deploy:check\`
prints the same tables)${revision ? `, this time at commit ${revision}` : ''}; regenerate it after a
change to the stack, the bench or the prices.

## Idle: ${usd(model.idle.usdPerMonth)} a month with no request at all

Counted from every template (the root stack, its nested stacks, the console-files stack): the
resources billed by the month, every EventBridge schedule rule with the GB-seconds of the
function it starts (a run lasts what the function's \`${RUN_SECONDS_ENVIRONMENT}\` says, else
the bench's figure, else its timeout), and the pollers Lambda keeps on each SQS queue.

${markdownTable(['item', 'quantity', 'price', 'USD/month', 'counted from'], idleRows)}
${model.idle.warnings.length > 0 ? `\n${model.idle.warnings.map((warning) => `- ${warning}`).join('\n')}\n` : ''}
What is stored adds its price per GB and month:

${markdownTable(['store', 'resources', 'price'], storageRows)}

Not counted idle: DynamoDB Streams reads by Lambda (free), EventBridge's scheduled events
(AWS events, free), alarm metrics' own data (AWS metrics, free), the KMS keys' rotations (each
of the first two adds $1 a month to a key with rotation on), and the free tiers (10 alarm
metrics, 1 million Lambda requests and 400,000 GB-seconds, 25 GB of DynamoDB storage a month per
account). The SQS line assumes ${IDLE_SQS_LONG_POLL_SECONDS} s long polls (AWS does not publish
its pollers' wait).

## Per million calls

Each operation's API Gateway method in the template names its function (memory, architecture)
and its authorizer; the bench gives each function's duration (the median of its warm handler,
invoked in process against DynamoDB Local and s3rver: a local figure, not a Lambda one) and
its DynamoDB read and write request units and S3 requests (one warm request, metered; DynamoDB
Local's transactional write units halved, as AWS bills 2 per KB and item, not 4). KMS, SQS and
EventBridge are counted once per call when the function's role may call them. Figures:
${model.figuresSource}.

${authorizerLines.join('\n')}

Per group (the files of \`lambdas/operations/\`), spread evenly over its operations:

${markdownTable(['group', 'operations', 'USD per million calls', 'cheapest', 'dearest', 'not measured by the bench'], groupRows)}

Per operation (USD per million calls):

${markdownTable(['group', 'operation', 'ms', 'API Gateway', 'authorizer', 'Lambda', 'DynamoDB', 'S3', 'KMS, SQS, EventBridge', 'total', 'not measured'], operationRows)}

An operation the bench does not measure is priced without its duration or its DynamoDB and S3
calls (a lower bound): API Gateway, the authorizer's requests and its own Lambda request remain.
Not counted per call: CloudWatch Logs ingestion of the functions' and the access log's lines,
X-Ray traces, data transfer out, cold starts' init duration, and the work a write causes later
(the ledger event's stream record, the publisher's EventBridge event at
${usd(ALL_PRICES.EVENTBRIDGE_CUSTOM_EVENT!.usd * 1e6)} per million, webhook deliveries, the sequencer).

## Prices

Each price is a named constant in \`scripts/deploy-check/aws-prices.ts\`, with its page and the
day it was read. This machine cannot reach AWS: \`aws-page\` prices were read in a stored copy of
the AWS page, \`secondary-source\` ones in pages that quote it, and \`known, not checked\` ones
are as known on that day; check those against the page before relying on them.

${markdownTable(['constant', 'price', 'page', 'read on', 'checked'], priceRows)}
`;
}

/** Writes the model to `docs/cost.md`. */
export function writeCostDoc(model: CostModel, file: string = COST_DOC_FILE): void {
  writeFileSync(file, costModelMarkdown(model, inputsRevision()));
}

if (require.main === module) {
  const model = costModel(synthesizedTemplates(), benchFigures());
  console.log(formatCostModel(model));
  if (process.argv.includes('--write-doc')) {
    writeCostDoc(model);
    console.log(`\nWritten: ${COST_DOC_FILE}`);
  }
}
