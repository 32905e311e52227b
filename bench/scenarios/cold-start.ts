/**
 * Bundle and cold start: every operation's handler and the authorizer bundled with esbuild as
 * the stack bundles them (`lib/bundled-function.ts`: platform node, its target, bundle, minify,
 * CommonJS, source map without sources, `@aws-sdk/*` bundled), its size, and its module
 * initialization time: the median, over fresh Node processes, of the time `require()` of the
 * bundle takes (measured inside the process, so Node's own start is left out). Next to it the
 * reference: a bundle of a handler that only creates a DynamoDB client.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import { operationList } from '../../lambdas/operations';
import { FUNCTION_BUNDLING, functionBuildOptions } from '../../lib/function-bundling';
import { handlersDirectory, projectRoot } from '../../local/project-paths';
import { median, round } from '../support/statistics';

export interface ColdStartRow {
  function: string;
  bundleKb: number;
  /** index.js and its source map, deflated (about the size of the zip Lambda loads). */
  zippedKb: number;
  initMedianMs: number;
  initMinMs: number;
  /** Median module initialization against the reference's. */
  initRatio: number;
  /** Median module initialization against the reference built from CommonJS builds. */
  initRatioToCommonJs: number;
  /**
   * Fastest module initialization against the reference's fastest: the cost without the
   * machine's interference, which only ever adds (a steadier figure than the median here).
   */
  initMinRatio: number;
  /**
   * The median, over the rounds, of the function's init ÷ the reference's in the same round
   * (they ran one after the other): a moment of load on the machine slows both, so it cancels.
   */
  initPairedRatio: number;
  sizeRatio: number;
  /**
   * AWS services the bundle reaches besides DynamoDB: by their SDK client (`KMS`), or by the
   * service's own signed requests (`S3 requests`, `lambdas/shared/aws-requests.ts`).
   */
  otherClients: string[];
  /** The same function before issue 17 (`bench/cold-start/before-issue-17.json`), if it existed. */
  before?: { bundleKb: number; initRatio: number };
}

/** Where the bytes of a bundle come from: npm packages (and the project's own code). */
export interface BundleShareRow {
  source: string;
  /** KB of the representative operation's bundle. */
  operationKb: number;
  referenceKb: number;
}

export interface ColdStartResult {
  target: string;
  runs: number;
  node: string;
  rows: ColdStartRow[];
  /** The operation whose bundle is broken down in `bundleShares`. */
  representative: string;
  bundleShares: BundleShareRow[];
}

const REFERENCE = 'reference: DynamoDB client only';
const COMMONJS_REFERENCE = 'reference, CommonJS builds';

/** The label of a service reached without its SDK, by the service's own signed requests. */
export const isOwnRequests = (client: string): boolean => client.endsWith(' requests');

/**
 * `@aws-sdk/client-s3` → `S3`, for the services a function may need besides DynamoDB: an SDK
 * client (npm package), or the project's own signed requests (the source file that sends them).
 */
const OTHER_CLIENTS: Record<string, string> = {
  'lambdas/shared/s3-requests.ts': 'S3 requests',
  'lambdas/shared/secret-box.ts': 'KMS requests',
  'lambdas/repositories/delivery-queue.ts': 'SQS requests',
  'lambdas/shared/background-jobs.ts': 'Lambda requests',
  '@aws-sdk/client-s3': 'S3',
  '@aws-sdk/client-kms': 'KMS',
  '@aws-sdk/client-sqs': 'SQS',
  '@aws-sdk/client-eventbridge': 'EventBridge',
  '@aws-sdk/client-lambda': 'Lambda',
};

/** Each function's figures when issue 17 was filed, for the before/after columns. */
const before = (
  JSON.parse(readFileSync(join(__dirname, '..', 'cold-start', 'before-issue-17.json'), 'utf8')) as {
    functions: Record<string, { bundleKb: number; initRatio: number }>;
  }
).functions;
const AUTHORIZER = 'authorizer';

/** `.../node_modules/@aws-sdk/client-dynamodb/dist-cjs/x.js` → `@aws-sdk/client-dynamodb`. */
function sourceOf(inputPath: string): string {
  const inModules = inputPath.split('node_modules/').at(-1) ?? inputPath;
  if (inModules === inputPath) return 'project code';
  const [first, second] = inModules.split('/');
  return first?.startsWith('@') ? `${first}/${second}` : (first ?? inputPath);
}

async function bundle(
  entry: string,
  outputDirectory: string,
  mainFields?: string[],
): Promise<{ path: string; bytesBySource: Map<string, number>; inputs: Set<string> }> {
  const outfile = join(outputDirectory, 'index.js');
  const options = functionBuildOptions(entry, outputDirectory);
  const result = await build({ ...options, mainFields: mainFields ?? options.mainFields, metafile: true });
  const bytesBySource = new Map<string, number>();
  const inputs = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const source = sourceOf(input);
      bytesBySource.set(source, (bytesBySource.get(source) ?? 0) + bytesInOutput);
      if (bytesInOutput > 0) inputs.add(input);
    }
  }
  return { path: outfile, bytesBySource, inputs };
}

/** The environment a deployed function has (no Lambda runtime around it, so no X-Ray daemon). */
function functionEnvironment(functionName: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_OPTIONS: '--enable-source-maps',
    AWS_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    TABLE_NAME: 'bench-table',
    FILES_BUCKET_NAME: 'bench-files',
    DIGEST_BUCKET_NAME: 'bench-digests',
    POWERTOOLS_SERVICE_NAME: 'bench',
    POWERTOOLS_METRICS_NAMESPACE: 'AssetRegistry',
  };
}

function measureInit(bundlePath: string, functionName: string): Promise<number> {
  const loader = join(__dirname, '..', 'cold-start', 'module-init-loader.cjs');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [loader, bundlePath],
      { env: functionEnvironment(functionName), timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${functionName}: ${error.message}\n${stderr}`));
        resolve((JSON.parse(stdout) as { initMs: number }).initMs);
      },
    );
  });
}

export async function runColdStart(options: {
  outputDirectory: string;
  runs: number;
  /** Only these operations (smoke runs); every row of the table when undefined. */
  operationIds?: string[];
}): Promise<ColdStartResult> {
  const functions = [
    { name: REFERENCE, entry: join(__dirname, '..', 'cold-start', 'reference-handler.ts') },
    {
      // The same handler as esbuild builds it from packages' CommonJS builds (its default for
      // platform node), as the stack bundled until 2026-11-26.
      name: COMMONJS_REFERENCE,
      entry: join(__dirname, '..', 'cold-start', 'reference-handler.ts'),
      mainFields: ['main', 'module'],
    },
    {
      name: 'reference: DynamoDB + S3 clients',
      entry: join(__dirname, '..', 'cold-start', 'reference-with-s3-handler.ts'),
    },
    { name: AUTHORIZER, entry: join(projectRoot, 'lambdas', 'authorizer', 'api-key-authorizer.ts') },
    ...operationList
      .filter((operation) => !options.operationIds || options.operationIds.includes(operation.id))
      .map((operation) => ({
        name: operation.id,
        entry: join(handlersDirectory, `${operation.handler}.ts`),
      })),
  ];
  const bundles = await Promise.all(
    functions.map(async (each, index) => {
      const directory = join(options.outputDirectory, String(index));
      mkdirSync(directory, { recursive: true });
      const { path, bytesBySource, inputs } = await bundle(each.entry, directory, each.mainFields);
      const content = readFileSync(path);
      return {
        ...each,
        path,
        bytesBySource,
        inputs,
        bytes: content.length,
        zippedBytes: deflateRawSync(content).length + deflateRawSync(readFileSync(`${path}.map`)).length,
      };
    }),
  );

  // Round-robin over the bundles, so that a noisy moment of the machine is shared among them.
  const samples = new Map<string, number[]>(bundles.map((each) => [each.name, []]));
  for (let run = 0; run < options.runs; run++) {
    for (const each of bundles) samples.get(each.name)?.push(await measureInit(each.path, each.name));
  }
  const reference = bundles[0];
  const referenceMedian = median(samples.get(REFERENCE) ?? []);
  const referenceSamples = samples.get(REFERENCE) ?? [];
  const referenceMin = Math.min(...referenceSamples);
  const commonJsReferenceMedian = median(samples.get(COMMONJS_REFERENCE) ?? []);
  const rows = bundles.map((each): ColdStartRow => {
    const initSamples = samples.get(each.name) ?? [];
    const initMedian = median(initSamples);
    return {
      function: each.name,
      bundleKb: round(each.bytes / 1024, 0),
      zippedKb: round(each.zippedBytes / 1024, 0),
      initMedianMs: round(initMedian, 1),
      initMinMs: round(Math.min(...initSamples), 1),
      initRatio: round(initMedian / referenceMedian, 2),
      initRatioToCommonJs: round(initMedian / commonJsReferenceMedian, 2),
      initMinRatio: round(Math.min(...initSamples) / referenceMin, 2),
      initPairedRatio: round(
        median(initSamples.map((sample, round) => sample / (referenceSamples[round] ?? Number.NaN))),
        2,
      ),
      sizeRatio: round(each.bytes / (reference?.bytes ?? each.bytes), 2),
      otherClients: Object.entries(OTHER_CLIENTS)
        .filter(([source]) => each.bytesBySource.has(source) || each.inputs.has(source))
        .map(([, client]) => client),
      before: before[each.name],
    };
  });
  // One operation's bundle broken down: what it carries beyond the reference.
  const representative = bundles.find((each) => each.name === 'getObject') ?? bundles[3] ?? bundles[0];
  const shares = [...(representative?.bytesBySource ?? new Map<string, number>())]
    .map(([source, bytes]) => ({
      source,
      operationKb: round(bytes / 1024, 0),
      referenceKb: round((reference?.bytesBySource.get(source) ?? 0) / 1024, 0),
    }))
    .sort((a, b) => b.operationKb - a.operationKb)
    .slice(0, 12);
  return {
    target: FUNCTION_BUNDLING.target,
    runs: options.runs,
    node: process.version,
    rows,
    representative: representative?.name ?? '',
    bundleShares: shares,
  };
}
