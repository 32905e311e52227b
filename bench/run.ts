import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedStack } from '../local/embedded-stack';
import { freePort } from '../local/free-port';
import { quietKnownWarnings } from './support/quiet-warnings';
import {
  compareResults,
  comparisonMarkdown,
  gitCommit,
  readPreviousResults,
} from './support/results-comparison';
import { mergeResults, sectionsMarkdown } from './support/results-merge';
import {
  authorizerSection,
  authorizerTimeSection,
  bundleSharesSection,
  coldStartSection,
  contentionSection,
  minimumsSection,
  operationCallsSection,
  overheadSection,
  renderSection,
  type Section,
  type SectionRun,
  scaleSection,
  throughputSection,
  uploadSection,
} from './support/results-report';

const SECTIONS = [
  'cold',
  'calls',
  'authorizer',
  'throughput',
  'contention',
  'scale',
  'uploads',
  'webhooks',
  'log',
  'console',
  'bulk',
  'fairness',
] as const;
type SectionName = (typeof SECTIONS)[number];

const small = process.env.BENCH_SMALL === '1';
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()) as SectionName[] | undefined;
const runs = (name: SectionName) => !only || only.includes(name);

const settings = {
  coldRuns: Number(process.env.BENCH_COLD_RUNS || (small ? 1 : 5)),
  coldOperations: small ? ['getObject', 'createObject'] : undefined,
  operationRuns: small ? 3 : 50,
  slowOperationRuns: small ? 2 : 15,
  warmups: small ? 1 : 3,
  connections: small ? 4 : 10,
  throughputMs: small ? 1000 : 5000,
  // The authorizer's warm calls timed per credential (section 2c).
  authorizerTimedCalls: small ? 200 : 2000,
  contention: small
    ? { concurrency: 5, rounds: 1, hotObjectWriters: [1, 5] }
    : { concurrency: 20, rounds: 3, hotObjectWriters: [1, 5, 20, 50] },
  scale: small
    ? {
        objectSizes: [10, 200],
        categorySizes: [10, 60],
        deepOffsets: { objects: 100, categories: 30 },
        cursorOnlyDepths: {} as Record<number, number>,
        runs: 5,
      }
    : {
        // BENCH_MILLION=1 adds a company of 1,000,000 objects (seeding takes long; see RESULTS.md).
        objectSizes: process.env.BENCH_MILLION === '1' ? [100, 10_000, 1_000_000] : [100, 10_000],
        categorySizes: [100, 1_000],
        deepOffsets: { objects: 5_000, categories: 500 },
        cursorOnlyDepths: { 1000000: 500_000 } as Record<number, number>,
        runs: 30,
      },
  log: small
    ? { logSizes: [1_000, 5_000], newEvents: 100, latencySeconds: 3, writesPerSecond: 10 }
    : { logSizes: [1_000, 100_000], newEvents: 100, latencySeconds: 15, writesPerSecond: 20 },
  uploads: small
    ? { uploads: 2, fileSizes: [512 * 1024, 1024 * 1024] }
    : { uploads: 10, fileSizes: [15 * 1024 * 1024, 45 * 1024 * 1024] },
  webhooks: small
    ? { writesPerSecond: 10, seconds: 2, burst: 40, objects: 5 }
    : { writesPerSecond: 20, seconds: 15, burst: 300, objects: 20 },
  // Rows of the import (and of the export of the same objects) at each size.
  // BENCH_BULK_SIZES=1000,20000 sets other sizes.
  // Company B's latencies alone and while company A imports (issue 24); BENCH_FAIRNESS_ROWS sets A's rows.
  // B alone for 240 s (481 events), so that its p99 is not the second-highest of a handful.
  fairness: {
    importRows: Number(process.env.BENCH_FAIRNESS_ROWS || (small ? 2_000 : 100_000)),
    writesPerSecond: 2,
    aloneSeconds: small ? 15 : 240,
    objectsOfB: 4,
  },
  bulk: {
    sizes: process.env.BENCH_BULK_SIZES
      ? process.env.BENCH_BULK_SIZES.split(',').map(Number)
      : small
        ? [1_000, 3_000]
        : [10_000, 100_000],
    warmupRows: small ? 200 : 1_000,
  },
} as const;

async function main(): Promise<void> {
  const started = Date.now();
  const droppedWarnings = quietKnownWarnings();
  const results: Record<string, unknown> = {
    measuredAt: new Date().toISOString(),
    commit: gitCommit(__dirname),
    // One-, five- and fifteen-minute load averages when the run started (2 cores: other helpers show here).
    loadAtStart: loadavg().map((value) => Number(value.toFixed(2))),
    node: process.version,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    small,
    sections: only ?? SECTIONS,
    settings,
  };
  const loadAverages: Record<string, string> = {};
  /** When, on which commit and under what load each section was measured (kept across partial runs). */
  const sectionRuns: Record<string, SectionRun> = {};
  let lastRun: SectionRun | undefined;
  const sections: Section[] = [];
  // Each section is shown right after the measurement it comes from.
  const show = (section: Section) => {
    sections.push({ ...section, measured: lastRun });
    console.log(`\n${renderSection(section)}`);
  };
  const measure = async <T>(name: string, action: () => Promise<T>): Promise<T> => {
    console.log(`\n== ${name}`);
    const before = loadavg()[0] ?? 0;
    const sectionStarted = Date.now();
    const value = await action();
    loadAverages[name] = `${before.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`;
    const seconds = Math.round((Date.now() - sectionStarted) / 1000);
    lastRun = {
      measuredAt: new Date(sectionStarted).toISOString(),
      commit: results.commit as string,
      seconds,
      loadAverage: loadAverages[name],
      small,
      machine: `Node ${process.version}, ${results.cpu}`,
    };
    sectionRuns[name] = lastRun;
    console.log(`   (${seconds} s, load average ${loadAverages[name]})`);
    return value;
  };
  const scratch = mkdtempSync(join(tmpdir(), 'asset-registry-bench-'));

  try {
    if (runs('cold')) {
      // Loaded when needed: it loads the operation table, which (through the import schemas)
      // loads the DynamoDB client, and that must wait for the embedded stack's environment.
      const { runColdStart } = await import('./scenarios/cold-start.js');
      const coldStart = await measure('bundles and cold start', () =>
        runColdStart({
          outputDirectory: join(scratch, 'bundles'),
          runs: settings.coldRuns,
          operationIds: settings.coldOperations ? [...settings.coldOperations] : undefined,
        }),
      );
      results.coldStart = coldStart;
      show(coldStartSection(coldStart));
      show(bundleSharesSection(coldStart));
    }

    if (
      runs('calls') ||
      runs('authorizer') ||
      runs('throughput') ||
      runs('contention') ||
      runs('scale') ||
      runs('webhooks') ||
      runs('log')
    )
      await measureOnEmbeddedStack(scratch, results, show, measure);

    // On an embedded stack of its own (see the scenario).
    if (runs('bulk')) {
      const { runBulkImportExport } = await import('./scenarios/bulk-import-export.js');
      const { bulkSection } = await import('./support/bulk-report.js');
      const rows = await measure('bulk import and export', () =>
        runBulkImportExport({ sizes: [...settings.bulk.sizes], warmupRows: settings.bulk.warmupRows }),
      );
      results.bulk = rows;
      show(bulkSection(rows));
    }

    if (runs('uploads')) {
      const { runUploadMemory } = await import('./scenarios/upload-memory.js');
      const uploads = await measure('uploads', () => runUploadMemory(settings.uploads));
      results.uploads = uploads;
      show(uploadSection(uploads));
    }

    if (runs('console')) {
      const { runConsoleBench } = await import('./scenarios/web-console.js');
      const { consoleSection } = await import('./support/web-console-report.js');
      const consoleFigures = await measure('web console', () =>
        runConsoleBench({ events: small ? 50 : 1000 }),
      );
      results.console = consoleFigures;
      show(consoleSection(consoleFigures));
    }

    // On an `npm start` of its own (see the scenario).
    if (runs('fairness')) {
      const { runTenantFairness, tenantFairnessSection } = await import('./scenarios/tenant-fairness.js');
      const fairness = await measure('tenant fairness', () => runTenantFairness(settings.fairness));
      results.fairness = fairness;
      show(tenantFairnessSection(fairness));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const durationSeconds = Math.round((Date.now() - started) / 1000);
  results.durationSeconds = durationSeconds;
  results.loadAverages = loadAverages;
  results.droppedPowertoolsWarnings = droppedWarnings;
  results.loadAtEnd = loadavg().map((value) => Number(value.toFixed(2)));
  results.sectionRuns = sectionRuns;
  // Smoke runs write apart; a full run of some sections (BENCH_ONLY) rewrites those sections of
  // bench/results.json and RESULTS.md and keeps the others as they were.
  const outputDirectory = small ? join(tmpdir(), 'asset-registry-bench-output') : __dirname;
  mkdirSync(outputDirectory, { recursive: true });
  const previous = readPreviousResults(join(outputDirectory, 'results.json'));
  const comparison = comparisonMarkdown(compareResults(previous, results), previous);
  console.log(`\n${comparison}`);
  writeFileSync(
    join(outputDirectory, 'results.json'),
    `${JSON.stringify(mergeResults(previous, results), null, 2)}\n`,
  );
  const markdownPath = join(outputDirectory, 'RESULTS.md');
  const previousMarkdown = existsSync(markdownPath) ? readFileSync(markdownPath, 'utf8') : undefined;
  writeFileSync(
    markdownPath,
    resultsMarkdown(sections, results, durationSeconds, loadAverages, comparison, previousMarkdown),
  );
  console.log(
    `\nDone in ${durationSeconds} s. Results: ${join(outputDirectory, 'results.json')}, RESULTS.md`,
  );
}

async function measureOnEmbeddedStack(
  scratch: string,
  results: Record<string, unknown>,
  show: (section: Section) => void,
  measure: <T>(name: string, action: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const stack = await startEmbeddedStack({ s3Directory: join(scratch, 's3') });
  Object.assign(process.env, stack.environment);
  try {
    // Imported once the environment points at the embedded stack (the clients read it on load).
    const { dynamoDb, dynamoDbClient } = await import('../lambdas/shared/clients.js');
    const { sendAws } = await import('../lambdas/shared/aws-requests.js');
    const { CallRecorder } = await import('./support/call-recorder.js');
    const { installDynamoDbMeter } = await import('./support/dynamodb-meter.js');
    const { installS3Meter } = await import('./support/s3-meter.js');
    const recorder = new CallRecorder();
    const meter = installDynamoDbMeter(dynamoDbClient, recorder);
    const s3Meter = installS3Meter(recorder);

    if (runs('calls')) {
      const { buildCaseWorld, operationCases } = await import('./scenarios/operation-cases.js');
      const { runOperationCosts } = await import('./scenarios/operation-costs.js');
      const costs = await measure('DynamoDB calls and handler overhead per operation', async () =>
        runOperationCosts({
          // BENCH_CASES=getObject,updateObject narrows the run while working on a few operations.
          cases: operationCases.filter(
            (each) => !process.env.BENCH_CASES || process.env.BENCH_CASES.split(',').includes(each.key),
          ),
          world: await buildCaseWorld(),
          meter,
          s3Meter,
          recorder,
          clients: {
            dynamoDb,
            // Replayed requests' failures are ignored: no error to read.
            sendAws: (request) => sendAws(request, { readError: () => ({ code: '', message: '' }) }),
          },
          runs: settings.operationRuns,
          slowRuns: settings.slowOperationRuns,
          warmups: settings.warmups,
          checkCoverage: !process.env.BENCH_CASES,
        }),
      );
      results.operationCalls = costs.calls;
      results.handlerOverhead = costs.overhead;
      results.aboveMinimum = costs.calls
        .filter((row) => (row.overMinimum ?? 0) > 0)
        .map(({ operation, dynamoDbCalls, minimum, excess }) => ({
          operation,
          dynamoDbCalls,
          minimum,
          excess,
        }));
      show(operationCallsSection(costs.calls));
      show(minimumsSection(costs.calls));
      show(overheadSection(costs.overhead));
    }

    if (runs('authorizer') || runs('throughput')) {
      const { startLocalGateway } = await import('../local/local-gateway.js');
      const port = await freePort();
      const gateway = await startLocalGateway({ port });
      const baseUrl = `http://127.0.0.1:${port}`;
      try {
        if (runs('authorizer')) {
          const { runAuthorizerCalls } = await import('./scenarios/authorizer-calls.js');
          const authorizer = await measure('authorizer calls and time', () =>
            runAuthorizerCalls(meter, gateway, baseUrl, { timedCalls: settings.authorizerTimedCalls }),
          );
          results.authorizerCalls = authorizer.calls;
          results.authorizerTime = authorizer.times;
          show(authorizerSection(authorizer));
          show(authorizerTimeSection(authorizer));
        }
        if (runs('throughput')) {
          const { runGatewayThroughput } = await import('./scenarios/gateway-throughput.js');
          const rows = await measure('throughput through the local gateway', () =>
            runGatewayThroughput({
              meter,
              baseUrl,
              connections: settings.connections,
              durationMs: settings.throughputMs,
            }),
          );
          results.throughput = rows;
          show(throughputSection(rows));
        }
      } finally {
        await gateway.close();
      }
    }

    if (runs('contention')) {
      const { runLedgerContention } = await import('./scenarios/ledger-contention.js');
      const rows = await measure('ledger contention', () =>
        runLedgerContention({
          meter,
          ...settings.contention,
          hotObjectWriters: [...settings.contention.hotObjectWriters],
        }),
      );
      results.contention = rows;
      show(contentionSection(rows));
    }

    if (runs('scale')) {
      const { runListScale } = await import('./scenarios/list-scale.js');
      const scale = await measure('list scale', () =>
        runListScale({
          meter,
          objectSizes: [...settings.scale.objectSizes],
          cursorOnlyDepths: settings.scale.cursorOnlyDepths,
          categorySizes: [...settings.scale.categorySizes] as [number, number],
          deepOffsets: settings.scale.deepOffsets,
          runs: settings.scale.runs,
        }),
      );
      results.listScale = scale;
      results.seedSeconds = scale.seedSeconds;
      show(scaleSection(scale.rows, scale.ratios));
    }

    if (runs('webhooks')) {
      const { runWebhookDelivery, webhookDeliverySection } = await import('./scenarios/webhook-delivery.js');
      const rows = await measure('webhook delivery', () =>
        runWebhookDelivery({ environment: stack.environment, ...settings.webhooks }),
      );
      results.webhookDelivery = rows;
      show(webhookDeliverySection(rows));
    }
    if (runs('log')) {
      const { runTransparencyLog } = await import('./scenarios/transparency-log.js');
      const { transparencyLogSection } = await import('./support/transparency-log-report.js');
      const log = await measure('transparency log', () =>
        runTransparencyLog({ meter, s3Meter, ...settings.log, logSizes: [...settings.log.logSizes] }),
      );
      results.transparencyLog = log;
      show(transparencyLogSection(log));
    }
  } finally {
    await stack.stop();
  }
}

function resultsMarkdown(
  sections: Section[],
  results: Record<string, unknown>,
  durationSeconds: number,
  loadAverages: Record<string, string>,
  comparison: string,
  previousMarkdown: string | undefined,
): string {
  const load = Object.entries(loadAverages)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
  const partial = only
    ? ` (\`BENCH_ONLY=${only.join(',')}\`: the other sections are kept from earlier runs)`
    : '';
  return `# Benchmark results

Written by \`npm run bench\`; the numbers behind it are in \`bench/results.json\` (not committed). A run
with \`BENCH_ONLY\` rewrites the sections it measures and keeps the others as this file had them:
each section says when it was measured, on which commit and under what load.
Local embedded stack (DynamoDB Local in memory, s3rver), Node ${results.node}, ${results.cpu}.

Last run: ${results.measuredAt}, commit ${results.commit}${partial}; it took ${Math.floor(durationSeconds / 60)} min ${durationSeconds % 60} s.
Load average (1, 5, 15 min) at its start ${JSON.stringify(results.loadAtStart)}, at its end ${JSON.stringify(results.loadAtEnd)}.
One-minute load average at the start → end of each of its sections (2 cores; other work on the
machine shows here): ${load}.

## 0. Compared with the previous run

${comparison}

${sectionsMarkdown(sections, previousMarkdown)}`;
}

main().then(
  // Keep-alive sockets of the SDK clients would hold the process open.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
