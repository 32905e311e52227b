/**
 * The bundle guard's checks (`bench/support/bundle-guard.ts`) on hand-made esbuild metafiles:
 * each fails where it must, with the function, the sizes, and the chain of imports that brought
 * a forbidden module in; and the project's rules (`bench/bundle-budgets.ts`) allow what was
 * decided (the sequencer's KMS client, the form reader in a form operation).
 */
import type { Metafile } from 'esbuild';
import { BUNDLE_BUDGETS_KB, FORBIDDEN_MODULES, type FunctionName } from '../../bench/bundle-budgets';
import {
  bundleContents,
  type FunctionBundle,
  forbiddenModules,
  importChain,
  matchesPattern,
  overBudget,
  packageOf,
} from '../../bench/support/bundle-guard';

const S3_CLIENT = 'node_modules/@aws-sdk/client-s3/dist-es/index.js';
const S3_CLIENT_CLASS = 'node_modules/@aws-sdk/client-s3/dist-es/S3Client.js';
const KMS_CLIENT = 'node_modules/@aws-sdk/client-kms/dist-es/index.js';

/**
 * Modules with their imports and their bytes in the output (`null`: not among the output's
 * inputs, as esbuild may leave out a package's index that only re-exports).
 */
type ModuleGraph = Record<string, { imports: string[]; bytes: number | null }>;

/** A metafile of one output, `out/index.js`, holding the modules. */
function metafileOf(modules: ModuleGraph, outputBytes: number): Metafile {
  return {
    inputs: Object.fromEntries(
      Object.entries(modules).map(([path, { imports }]) => [
        path,
        {
          bytes: 1,
          imports: imports.map((imported) => ({ path: imported, kind: 'import-statement' as const })),
        },
      ]),
    ),
    outputs: {
      'out/index.js': {
        bytes: outputBytes,
        imports: [],
        exports: [],
        inputs: Object.fromEntries(
          Object.entries(modules)
            .filter(([, { bytes }]) => bytes !== null)
            .map(([path, { bytes }]) => [path, { bytesInOutput: bytes! }]),
        ),
      },
    },
  };
}

function bundleOf(
  name: FunctionName,
  entry: string,
  modules: ModuleGraph,
  outputBytes = 100_000,
): FunctionBundle {
  const metafile = metafileOf(modules, outputBytes);
  return {
    name,
    kind: name === 'sequenceLedger' ? 'worker' : 'api',
    entry,
    ...bundleContents(metafile, metafile.outputs['out/index.js']!),
  };
}

/** getObject's handler → a domain module → a repository → the S3 client, with a detour that leads nowhere. */
const getObjectWithS3 = () =>
  bundleOf('getObject', 'lambdas/handlers/objects/get-object.ts', {
    'lambdas/handlers/objects/get-object.ts': {
      imports: ['lambdas/http/http-handler.ts', 'lambdas/domain/objects/object-service.ts'],
      bytes: 500,
    },
    'lambdas/http/http-handler.ts': { imports: ['node_modules/@middy/core/index.js'], bytes: 900 },
    'node_modules/@middy/core/index.js': { imports: [], bytes: 3_000 },
    'lambdas/domain/objects/object-service.ts': {
      imports: ['lambdas/repositories/object-files.ts'],
      bytes: 800,
    },
    'lambdas/repositories/object-files.ts': { imports: [S3_CLIENT], bytes: 400 },
    // The package's index only re-exports: not in the output, yet the chain runs through it.
    [S3_CLIENT]: { imports: [S3_CLIENT_CLASS], bytes: null },
    [S3_CLIENT_CLASS]: { imports: [], bytes: 40_000 },
  });

describe('a module a function must not bundle', () => {
  it('is reported with the import chain from the entry that brought it in', () => {
    // Prepare
    const bundle = getObjectWithS3();

    // Act
    const messages = forbiddenModules([bundle], FORBIDDEN_MODULES);

    // Assess
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(
      'getObject bundles the S3 SDK: lambdas/handlers/objects/get-object.ts → ' +
        'lambdas/domain/objects/object-service.ts → lambdas/repositories/object-files.ts → ' +
        '@aws-sdk/client-s3/dist-es/index.js (S3 is called with signed requests of our own',
    );
  });

  it('is not reported when esbuild dropped all of its code', () => {
    // Prepare
    const bundle = bundleOf('getObject', 'lambdas/handlers/objects/get-object.ts', {
      'lambdas/handlers/objects/get-object.ts': { imports: [S3_CLIENT], bytes: 500 },
      [S3_CLIENT]: { imports: [], bytes: 0 },
    });

    // Act
    const messages = forbiddenModules([bundle], FORBIDDEN_MODULES);

    // Assess
    expect(messages).toEqual([]);
  });

  it('is allowed where the rules say why: the KMS client in the sequencer, not in an API function', () => {
    // Prepare
    const withKms = (name: FunctionName, entry: string) =>
      bundleOf(name, entry, {
        [entry]: { imports: [KMS_CLIENT], bytes: 500 },
        [KMS_CLIENT]: { imports: [], bytes: 9_000 },
      });

    // Act
    const messages = forbiddenModules(
      [
        withKms('sequenceLedger', 'lambdas/jobs/sequence-ledger.ts'),
        withKms('createWebhook', 'lambdas/handlers/webhooks/create-webhook.ts'),
      ],
      FORBIDDEN_MODULES,
    );

    // Assess
    expect(messages).toEqual([
      expect.stringMatching(
        /^createWebhook bundles the KMS SDK client: lambdas\/handlers\/webhooks\/create-webhook\.ts → @aws-sdk\/client-kms\/dist-es\/index\.js \(/,
      ),
    ]);
  });

  it('keeps the form reader to the operations whose row takes a form', () => {
    // Prepare
    const withBusboy = (name: FunctionName) =>
      bundleOf(name, `lambdas/handlers/${name}.ts`, {
        [`lambdas/handlers/${name}.ts`]: { imports: ['node_modules/busboy/lib/index.js'], bytes: 500 },
        'node_modules/busboy/lib/index.js': { imports: [], bytes: 20_000 },
      });

    // Act
    const messages = forbiddenModules([withBusboy('uploadFile'), withBusboy('getObject')], FORBIDDEN_MODULES);

    // Assess
    expect(messages).toEqual([expect.stringMatching(/^getObject bundles the multipart reader: /)]);
  });

  it('matches packages by name, scopes and project folders by prefix', () => {
    expect(packageOf('node_modules/a/node_modules/@aws-sdk/client-s3/dist-es/x.js')).toBe(
      '@aws-sdk/client-s3',
    );
    expect(packageOf('lambdas/jobs/import-objects.ts')).toBeUndefined();
    expect(
      matchesPattern('node_modules/@aws-lambda-powertools/logger/lib/index.js', '@aws-lambda-powertools/'),
    ).toBe(true);
    expect(matchesPattern('node_modules/@aws-sdk/client-s3-control/dist-es/x.js', '@aws-sdk/client-s3')).toBe(
      false,
    );
    expect(matchesPattern('lambdas/jobs/import-objects.ts', 'lambdas/jobs/')).toBe(true);
    expect(matchesPattern('lambdas/jobs-catalogue.ts', 'lambdas/jobs/')).toBe(false);
  });
});

describe('the import chain', () => {
  it('is the shortest one, entry first', () => {
    // Prepare: a long way and a short way to the same module.
    const bundle = bundleOf('getObject', 'entry.ts', {
      'entry.ts': { imports: ['long-1.ts', 'short.ts'], bytes: 1 },
      'long-1.ts': { imports: ['long-2.ts'], bytes: 1 },
      'long-2.ts': { imports: ['target.ts'], bytes: 1 },
      'short.ts': { imports: ['target.ts'], bytes: 1 },
      'target.ts': { imports: [], bytes: 1 },
    });

    // Act
    const chain = importChain(bundle, (path) => path === 'target.ts');

    // Assess
    expect(chain).toEqual(['entry.ts', 'short.ts', 'target.ts']);
  });
});

describe('a bundle over its budget', () => {
  it('is reported with its size, its budget and by how much it is over', () => {
    // Prepare: 400 KB against a budget of 382 KB.
    const bundle = bundleOf('getObject', 'entry.ts', { 'entry.ts': { imports: [], bytes: 1 } }, 400 * 1024);

    // Act
    const messages = overBudget([bundle], { getObject: 382 });

    // Assess
    expect(messages).toEqual(['getObject: 400.0 KB, over its budget of 382 KB (+4.7 %)']);
  });

  it('passes at its budget, and a function without a budget is reported', () => {
    // Prepare
    const atBudget = bundleOf('getObject', 'entry.ts', { 'entry.ts': { imports: [], bytes: 1 } }, 382 * 1024);
    const unbudgeted = bundleOf('getWallet', 'entry.ts', { 'entry.ts': { imports: [], bytes: 1 } }, 1024);

    // Act
    const messages = overBudget([atBudget, unbudgeted], { getObject: 382 });

    // Assess
    expect(messages).toEqual(['getWallet: 1.0 KB, and no budget']);
  });

  it("uses the project's budgets: a bundle 10 % above one fails", () => {
    // Prepare
    const bytes = Math.round(BUNDLE_BUDGETS_KB.getObject * 1024 * 1.1);
    const bundle = bundleOf('getObject', 'entry.ts', { 'entry.ts': { imports: [], bytes: 1 } }, bytes);

    // Act
    const messages = overBudget([bundle], BUNDLE_BUDGETS_KB);

    // Assess
    expect(messages).toEqual([
      expect.stringMatching(/^getObject: .* KB, over its budget of \d+ KB \(\+10\.0 %\)$/),
    ]);
  });
});
