/**
 * The tables of a bench run, as Markdown: each section printed once it is measured, and all of
 * them written to `bench/RESULTS.md` at the end.
 */
import type { AuthorizerResults } from '../scenarios/authorizer-calls';
import { type ColdStartResult, type ColdStartRow, isOwnRequests } from '../scenarios/cold-start';
import type { ThroughputRow } from '../scenarios/gateway-throughput';
import type { ContentionRow } from '../scenarios/ledger-contention';
import type { ListScaleRatio, ListScaleRow } from '../scenarios/list-scale';
import type { OperationCallsRow, OverheadRow } from '../scenarios/operation-costs';
import type { UploadMemoryResult } from '../scenarios/upload-memory';
import { round } from './statistics';
import { column, markdownTable } from './table';

/** When, on which commit and under what load a section was measured. */
export interface SectionRun {
  measuredAt: string;
  commit: string;
  seconds: number;
  /** One-minute load average at the start → end of the measurement. */
  loadAverage: string | undefined;
  small: boolean;
  /** Node version and CPUs. */
  machine: string;
}

export interface Section {
  title: string;
  /** Set by the bench run when the section is measured; rendered under the title. */
  measured?: SectionRun;
  /** What was measured and how, one or two sentences. */
  intro: string;
  table: string;
  notes?: string[];
}

export function coldStartSection(result: ColdStartResult): Section {
  return {
    title: '1. Bundle and cold start',
    intro:
      `esbuild as \`lib/bundled-function.ts\` bundles (\`lib/function-bundling.ts\`: platform node, target ` +
      `${result.target}, packages' ES module builds first, minify, CommonJS output, source map without sources, ` +
      `@aws-sdk bundled). Module initialization: median of ${result.runs} fresh ` +
      `\`node --enable-source-maps\` processes (${result.node}) timing \`require()\` of the bundle.`,
    table: markdownTable(result.rows, [
      column('function', (row) => row.function),
      column('bundle KB', (row) => row.bundleKb, true),
      column('zipped KB', (row) => row.zippedKb, true),
      column('init ms (median)', (row) => row.initMedianMs, true),
      column('init ms (min)', (row) => row.initMinMs, true),
      column('init ÷ reference', (row) => row.initRatio, true),
      column('init min ÷ reference min', (row) => row.initMinRatio, true),
      column('init ÷ reference, paired by round', (row) => row.initPairedRatio, true),
      column('init ÷ CommonJS reference', (row) => row.initRatioToCommonJs, true),
      column('size ÷ reference', (row) => row.sizeRatio, true),
      column('other AWS clients', (row) => row.otherClients.join(', ')),
      column('before: bundle KB', (row) => row.before?.bundleKb, true),
      column('before: init ÷ reference', (row) => row.before?.initRatio, true),
    ]),
    notes: [
      'Outside the Lambda runtime (no X-Ray daemon, no LAMBDA_TASK_ROOT) and on this machine, not a 1024 MB ARM function; the ratio to the reference is the figure to compare.',
      coldStartVerdict(result.rows),
      '"other AWS clients": the services a bundle reaches besides DynamoDB. "S3 requests", "KMS requests", "SQS requests" and "Lambda requests" are the service\'s own signed requests (`lambdas/shared/aws-requests.ts`, on the signer, HTTP handler and credential chain the DynamoDB client bundles), which replaced those SDK clients on 2026-11-26; the DynamoDB + S3 reference shows what the S3 SDK costs. "before": the same function on 2026-11-21 (`bench/cold-start/before-issue-17.json`, when the reference took 71.7 ms), empty for functions added since.',
    ],
  };
}

/** Which functions exceed 1.2× the reference's init, and which 1.25× its size without another SDK client. */
function coldStartVerdict(rows: ColdStartRow[]): string {
  const functions = rows.filter((row) => !row.function.startsWith('reference'));
  const large = functions.filter((row) => row.otherClients.every(isOwnRequests) && row.sizeRatio > 1.25);
  const over = (figure: (row: ColdStartRow) => number) => {
    const slow = functions.filter((row) => figure(row) > 1.2);
    return slow.length === 0
      ? 'none'
      : slow.map((row) => `${row.function} ${round(figure(row), 2)}×`).join(', ');
  };
  return (
    `Init above 1.2× the reference, by the median: ${over((row) => row.initRatio)}; by the minimum: ` +
    `${over((row) => row.initMinRatio)}; paired by round: ${over((row) => row.initPairedRatio)} ` +
    `(of ${functions.length} functions). Bundles above 1.25× among ` +
    `functions that hold no SDK client but DynamoDB's: ` +
    `${large.length === 0 ? 'none' : large.map((row) => `${row.function} ${row.sizeRatio}×`).join(', ')}.`
  );
}

export function bundleSharesSection(result: ColdStartResult): Section {
  return {
    title: '1a. What a handler bundle holds',
    intro: `The ${result.representative} bundle by source (esbuild metafile, bytes in the minified output), next to the reference bundle; the 12 largest.`,
    table: markdownTable(result.bundleShares, [
      column('source', (row) => row.source),
      column(`${result.representative} KB`, (row) => row.operationKb, true),
      column('reference KB', (row) => row.referenceKb, true),
    ]),
  };
}

export function operationCallsSection(rows: OperationCallsRow[]): Section {
  const over = rows.filter((row) => (row.overMinimum ?? 0) > 0);
  return {
    title: '2. DynamoDB calls and consumed capacity per operation',
    intro:
      'One warm request per operation, handler invoked in process; calls counted by an SDK middleware on the shared DynamoDB client (failed calls included), capacity as DynamoDB Local reports it (`ReturnConsumedCapacity: TOTAL`). Minimums and their reasons: `bench/operation-minimums.ts`.',
    table: markdownTable(rows, [
      column('operation', (row) => row.operation),
      column('calls', (row) => row.dynamoDbCalls, true),
      column('minimum', (row) => row.minimum, true),
      column('above', (row) =>
        row.overMinimum === null ? '' : row.overMinimum > 0 ? `+${row.overMinimum}` : '✓',
      ),
      column('commands', (row) => row.commands || row.error),
      column('RCU', (row) => row.readUnits, true),
      column('WCU', (row) => row.writeUnits, true),
      column('S3 calls', (row) => row.s3Calls),
      column('request', (row) => row.fixture),
    ]),
    notes: [
      'DynamoDB Local reports a transactional write at 4 units per KB and item; AWS bills 2 (prepare + commit). Halve the WCU of TransactWriteItems calls for an AWS estimate.',
      over.length === 0
        ? 'Every operation is at its stated minimum.'
        : [
            'Above the stated minimum:\n',
            ...over.map(
              (row) =>
                `- **${row.operation}**: ${row.dynamoDbCalls} calls, minimum ${row.minimum}. ${row.excess ?? ''}`,
            ),
          ].join('\n'),
      ...rows
        .filter((row) => row.capacityNote)
        .map((row) => `Capacity, **${row.operation}**: ${row.capacityNote}.`),
      ...rows.filter((row) => row.error).map((row) => `**${row.operation}** failed: ${row.error}`),
    ],
  };
}

export function minimumsSection(rows: OperationCallsRow[]): Section {
  return {
    title: '2a. Stated minimums',
    intro:
      'The fewest calls that give the same response with the same guarantees on the current key design; reads of known keys that run side by side count one each (a BatchGetItem bills the same units and waits as long).',
    table: markdownTable(rows, [
      column('operation', (row) => row.operation),
      column('minimum', (row) => row.minimum, true),
      column('why', (row) => row.minimumReason),
    ]),
  };
}

export function authorizerSection({ calls: rows }: AuthorizerResults): Section {
  return {
    title: '2b. Authorizer calls',
    intro:
      'The authorizer invoked alone, and one request through the local gateway, with its memory cache cleared just before (cold) and right after such a request (warm). The gateway row adds the handler’s own calls. A person’s token is an RS256 ID token of a test OpenID provider on loopback (`test/support/test-identity-provider.ts`) registered for the company; its discovery document and key set are fetched over HTTP, counted in their own column.',
    table: markdownTable(rows, [
      column('credential', (row) => row.credential),
      column('authorizer calls', (row) => row.authorizerCalls, true),
      column('minimum', (row) => row.minimum, true),
      column('authorizer commands', (row) => row.authorizerCommands),
      column('provider fetches', (row) => row.authorizerFetches),
      column('gateway request', (row) => row.gatewayRequest),
      column('status', (row) => row.gatewayStatus, true),
      column('calls (whole request)', (row) => row.gatewayCalls, true),
      column('provider fetches (whole request)', (row) => row.gatewayFetches),
      column(
        'authorizer runs / gateway cache hits',
        (row) => `${row.gatewayAuthorizerRuns} / ${row.gatewayCacheHits}`,
      ),
    ]),
    notes: rows.map((row) => `${row.credential}: ${row.minimumReason}.`),
  };
}

export function authorizerTimeSection({
  times,
  timingRounds,
  fetchesWhileTimed,
}: AuthorizerResults): Section {
  return {
    title: '2c. Authorizer time per call',
    intro: `The authorizer handler invoked in process with warm caches, ${times[0]?.calls ?? 0} calls per credential, the credentials taking turns in ${timingRounds} rounds (each opened by one untimed call per credential, which keeps the caches warm). A person’s token is verified against its provider’s public key on every call; an API key is a memory cache hit. The ratios to the API key are the figures to compare; nothing asserts a time.`,
    table: markdownTable(times, [
      column('credential', (row) => row.credential),
      column('calls', (row) => row.calls, true),
      column('median µs', (row) => row.medianMicroseconds, true),
      column('p99 µs', (row) => row.p99Microseconds, true),
      column('median ÷ API key', (row) => row.medianRatio, true),
      column('p99 ÷ API key', (row) => row.p99Ratio, true),
      column('DynamoDB calls', (row) => row.dynamoDbCalls, true),
    ]),
    notes: [
      `The provider’s discovery document and key set were fetched ${fetchesWhileTimed} times during the timed calls. \`jose\` verifies with Node’s WebCrypto (OpenSSL). RSA verifies fastest of the three: its public exponent is small (signing, the provider’s part, is the slow half). Times are this machine’s under its load; the ratios are what carries over.`,
    ],
  };
}

export function overheadSection(rows: OverheadRow[]): Section {
  return {
    title: '3. Handler overhead',
    intro:
      'Median latency of the handler invoked in process, against the median latency of the same SDK calls (DynamoDB and S3) sent again without it: each run is recorded and replayed right after, with the same overlap (calls that ran side by side are replayed side by side; write conditions kept but made to pass).',
    table: markdownTable(rows, [
      column('operation', (row) => row.operation),
      column('runs', (row) => row.runs, true),
      column('handler ms', (row) => row.handlerMedianMs, true),
      column('handler p95 ms', (row) => row.handlerP95Ms, true),
      column('raw calls ms', (row) => row.rawCallsMedianMs, true),
      column('overhead ms', (row) => row.overheadMs, true),
      column('ratio', (row) => row.ratio, true),
      column(
        'calls replayed (waves)',
        (row) => `${row.replayedCalls} (${row.waves})${row.notReplayed ? `, not: ${row.notReplayed}` : ''}`,
      ),
    ]),
    notes: [
      'Wallet creation and login include a scrypt hash or check (N = 2^15, by design about 0.1 s); uploads include multipart parsing and SHA-256.',
    ],
  };
}

export function throughputSection(rows: ThroughputRow[]): Section {
  return {
    title: '4. Throughput through the local gateway',
    intro:
      'Loopback only; keep-alive connections from a worker thread, each sending its next request when the previous response is in, for a fixed time. The gateway, its authorizer and the handlers share one Node process with the bench; DynamoDB Local runs beside it on the same 2 cores.',
    table: markdownTable(rows, [
      column('request', (row) => row.endpoint),
      column('connections', (row) => row.connections, true),
      column('s', (row) => row.seconds, true),
      column('requests', (row) => row.requests, true),
      column('req/s', (row) => row.requestsPerSecond, true),
      column('p50 ms', (row) => row.p50Ms, true),
      column('p99 ms', (row) => row.p99Ms, true),
      column('statuses', (row) => row.statuses),
      column('errors', (row) => row.errors, true),
      column('DynamoDB calls / request', (row) => row.dynamoDbCallsPerRequest, true),
      column('cancelled transactions', (row) => row.cancellations),
    ]),
  };
}

export function scaleSection(rows: ListScaleRow[], ratios: ListScaleRatio[]): Section {
  return {
    title: '5. Scale: page 1 as the company grows',
    intro:
      'Page 1 (limit 20) of the object list and of the category list through their handlers in process, at both sizes; then a deep page, by offset and by cursor (the nextCursor of the page before it). Objects seeded with BatchWriteItem from the repository’s item builder; categories through the category service. BENCH_MILLION=1 adds 1,000,000 objects, whose deep page is read by cursor only.',
    table: `${markdownTable(rows, [
      column('list', (row) => row.list),
      column('size', (row) => row.size, true),
      column('offset', (row) => row.offset, true),
      column('by', (row) => row.by),
      column('median ms', (row) => row.medianMs, true),
      column('p95 ms', (row) => row.p95Ms, true),
      column('RCU', (row) => row.readUnitsPerCall, true),
      column('calls', (row) => row.dynamoDbCallsPerCall, true),
      column('commands', (row) => row.commands),
    ])}\n\n${markdownTable(ratios, [
      column('list', (row) => row.list),
      column('from → to', (row) => row.sizes),
      column('latency ratio', (row) => row.latencyRatio, true),
      column('RCU ratio', (row) => row.readUnitsRatio, true),
    ])}`,
    notes: [
      'Page 1 reads offset + limit index entries plus the counters item, whatever the size. A deep offset reads every entry it skips (DynamoDB has no positional skip): its cost grows with the offset, not with the company. A cursor holds where the read stopped (ExclusiveStartKey), so the page after it reads only its own entries: the cost of page 1 at any depth.',
    ],
  };
}

export function contentionSection(rows: ContentionRow[]): Section {
  return {
    title: '6. Ledger contention',
    intro:
      'Updates started at the same moment through the update handler in process, in rounds. Retries = TransactWriteItems calls beyond one per request (a lost race re-reads and writes again; a cancelled transaction is retried); the reasons are what DynamoDB gave for each cancellation. Every chain verified afterwards.',
    table: markdownTable(rows, [
      column('scenario', (row) => row.scenario),
      column('rounds', (row) => row.rounds, true),
      column('requests', (row) => row.requests, true),
      column('200', (row) => row.successes, true),
      column('409', (row) => row.conflicts409, true),
      column('other', (row) => row.otherFailures, true),
      column('wall ms', (row) => row.wallMs, true),
      column('successes/s', (row) => row.successesPerSecond, true),
      column('TransactWriteItems', (row) => row.transactWriteCalls, true),
      column('retries', (row) => row.retries, true),
      column('condition failed', (row) => row.conditionFailures, true),
      column('transaction conflict', (row) => row.transactionConflicts, true),
      column('object reads', (row) => row.objectReads, true),
      column('chains valid', (row) => (row.chainsValid ? 'yes' : 'NO')),
    ]),
  };
}

export function uploadSection(rows: UploadMemoryResult[]): Section {
  const uploads = rows[0]?.uploads ?? 0;
  return {
    title: '7. Uploads: server memory',
    intro: `\`npm start\` in a child process; ${uploads} concurrent multipart uploads over HTTP, each to its own object, one round per file size (smaller first, same server); the server process's VmRSS sampled every 20 ms from /proc. Growth is measured from the RSS before the first round, so the second round's peak includes the first's.`,
    table: markdownTable(rows, [
      column('uploads', (row) => `${row.uploads} × ${row.fileMb} MB`),
      column('bodies MB', (row) => row.bodiesMb, true),
      column('statuses', (row) => row.statuses),
      column('wall s', (row) => row.wallSeconds, true),
      column('MB/s', (row) => row.megabytesPerSecond, true),
      column('RSS before MB', (row) => row.baselineRssMb, true),
      column('peak RSS MB', (row) => row.peakRssMb, true),
      column('growth MB', (row) => row.peakGrowthMb, true),
      column('growth per upload MB', (row) => Math.round(row.peakGrowthMb / row.uploads), true),
      column('growth ÷ bodies', (row) => row.growthShareOfBodies, true),
      column('VmHWM MB', (row) => row.vmHwmMb, true),
    ]),
    notes: [
      'In local mode s3rver runs inside the server process: its buffers count here too. Each upload streams through an S3 multipart upload of 5 MB parts, two in flight.',
    ],
  };
}

/** The line under a section's title that says when it was measured. */
function measuredLine(run: SectionRun): string {
  return (
    `_Measured ${run.measuredAt}, commit ${run.commit}, in ${run.seconds} s (${run.machine}); one-minute ` +
    `load average ${run.loadAverage ?? 'unknown'}${run.small ? '; smoke sizes (BENCH_SMALL)' : ''}._`
  );
}

export function renderSection(section: Section): string {
  const notes = section.notes?.length ? `\n\n${section.notes.join('\n\n')}` : '';
  const measured = section.measured ? `${measuredLine(section.measured)}\n\n` : '';
  return `## ${section.title}\n\n${measured}${section.intro}\n\n${section.table}${notes}\n`;
}
