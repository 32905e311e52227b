/**
 * The cold-start guards (`bench/bundle-budgets.ts`, docs/bundle-budgets.md): every function of
 * the synthesized stack, bundled as `cdk deploy` bundles it (one esbuild run), stays within its
 * budget and holds no module its kind of function must not. A failure names the function, its
 * size against its budget, or the forbidden module and the chain of imports that brought it in.
 */
import { BUNDLE_BUDGETS_KB, FORBIDDEN_MODULES } from '../../bench/bundle-budgets';
import { type FunctionBundle, forbiddenModules, overBudget } from '../../bench/support/bundle-guard';
import { bundleFunctions, stackFunctions } from '../../bench/support/stack-bundles';

/** A synthesis and a build of every function: about 30 s on a quiet 2-core machine, more on a busy one. */
const BUILD_TIMEOUT_MS = 180_000;

let bundles: FunctionBundle[];

beforeAll(async () => {
  bundles = await bundleFunctions(stackFunctions());
}, BUILD_TIMEOUT_MS);

it('bundles every function of the stack, the authorizer and the workers included', () => {
  const names = bundles.map((bundle) => bundle.name);
  expect(names).toEqual(
    expect.arrayContaining(['authorizer', 'getObject', 'sequenceLedger', 'importObjectsJob']),
  );
  expect(new Set(names).size).toBe(names.length);
});

it('keeps every bundle within its budget (refresh: npx tsx scripts/bundle-budgets.ts --write)', () => {
  expect(overBudget(bundles, BUNDLE_BUDGETS_KB)).toEqual([]);
});

it('keeps out of each bundle the modules its kind of function must not hold', () => {
  expect(forbiddenModules(bundles, FORBIDDEN_MODULES)).toEqual([]);
});
