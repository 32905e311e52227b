/**
 * The checks of `bench/bundle-budgets.ts` on bundles read from esbuild's metafile: a bundle over
 * its budget, and a module a function must not bundle, with the chain of imports from the
 * function's entry that brought it in. Pure functions, so that a test can show each check failing.
 */
import type { Metafile } from 'esbuild';
import type { ForbiddenModules, FunctionKind, FunctionName } from '../bundle-budgets';

/** One function's bundle, as read from esbuild's metafile. */
export interface FunctionBundle {
  name: FunctionName;
  kind: FunctionKind;
  /** The entry's path from the project root, as the metafile names it. */
  entry: string;
  /** The size of `index.js` (the source map aside). */
  bytes: number;
  /** The modules with code in the bundle (metafile input paths), with the bytes each adds. */
  modules: Map<string, number>;
  /** Each module's imports (metafile input paths), those of modules esbuild dropped included. */
  imports: Map<string, string[]>;
}

/**
 * The size, modules and imports of one output of a metafile.
 *
 * @example
 * bundleContents(result.metafile, result.metafile.outputs['out/getObject/index.js']!);
 */
export function bundleContents(
  metafile: Metafile,
  output: Metafile['outputs'][string],
): Pick<FunctionBundle, 'bytes' | 'modules' | 'imports'> {
  // A module esbuild dropped whole (tree shaking) is listed with 0 bytes: it is not in the bundle.
  const modules = new Map(
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path, { bytesInOutput }]) => [path, bytesInOutput]),
  );
  return { bytes: output.bytes, modules, imports: importsOf(metafile) };
}

/** Each metafile's import graph, built once: every output of a run shares it. */
const importGraphs = new WeakMap<Metafile, Map<string, string[]>>();

/**
 * Every module's imports, over all inputs of the run, not only the output's: a package's index
 * that only re-exports adds no bytes and may be missing from the output's inputs, yet the chain
 * from the entry runs through it.
 */
function importsOf(metafile: Metafile): Map<string, string[]> {
  let imports = importGraphs.get(metafile);
  if (imports === undefined) {
    imports = new Map(
      Object.entries(metafile.inputs).map(([path, input]) => [
        path,
        input.imports.filter((each) => !each.external).map((each) => each.path),
      ]),
    );
    importGraphs.set(metafile, imports);
  }
  return imports;
}

/**
 * A module's name for the rules and messages: within a package, the path from its last
 * `node_modules/` (`@aws-sdk/client-s3/dist-es/S3Client.js`); in the project, its path.
 */
const moduleName = (path: string): string => path.split('node_modules/').at(-1)!;

/** The npm package of a metafile input path (`@aws-sdk/client-s3`), or undefined in the project. */
export function packageOf(path: string): string | undefined {
  if (!path.includes('node_modules/')) return undefined;
  const [first, second] = moduleName(path).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : first;
}

/** Each path's package or project path: a check looks up every module of 57 bundles for each rule. */
const ruleNames = new Map<string, string>();
const ruleNameOf = (path: string): string => {
  let name = ruleNames.get(path);
  if (name === undefined) ruleNames.set(path, (name = packageOf(path) ?? path));
  return name;
};

/** Whether a module is matched by a rule's pattern (see {@link ForbiddenModules}). */
export function matchesPattern(path: string, pattern: string): boolean {
  const name = ruleNameOf(path);
  return pattern.endsWith('/') ? `${name}/`.startsWith(pattern) : name === pattern;
}

/**
 * The shortest chain of imports from the bundle's entry to a module the predicate matches
 * (breadth first over the imports esbuild read), entry first; undefined when there is none.
 */
export function importChain(
  bundle: FunctionBundle,
  matches: (path: string) => boolean,
): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[bundle.entry, undefined]]);
  const queue = [bundle.entry];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (matches(next)) {
      const chain: string[] = [];
      for (let at: string | undefined = next; at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
      return chain;
    }
    for (const imported of bundle.imports.get(next) ?? []) {
      if (cameFrom.has(imported)) continue;
      cameFrom.set(imported, next);
      queue.push(imported);
    }
  }
  return undefined;
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

/**
 * A message for each bundle over its budget, and for each function without one.
 *
 * @example
 * overBudget(bundles, BUNDLE_BUDGETS_KB); // ['getObject: 402.1 KB, over its budget of 382 KB (+5.3 %)']
 */
export function overBudget(
  bundles: readonly FunctionBundle[],
  budgetsKb: Partial<Record<FunctionName, number>>,
): string[] {
  return bundles.flatMap((bundle) => {
    const budgetKb = budgetsKb[bundle.name];
    if (budgetKb === undefined) return [`${bundle.name}: ${kb(bundle.bytes)} KB, and no budget`];
    if (bundle.bytes <= budgetKb * 1024) return [];
    const over = ((bundle.bytes / (budgetKb * 1024) - 1) * 100).toFixed(1);
    return [`${bundle.name}: ${kb(bundle.bytes)} KB, over its budget of ${budgetKb} KB (+${over} %)`];
  });
}

/**
 * A message for each forbidden module in a bundle: the function, what the module is, the chain
 * of imports from its entry, and why it is kept out.
 *
 * @example
 * forbiddenModules(bundles, FORBIDDEN_MODULES);
 * // ['getObject bundles the S3 SDK: lambdas/handlers/objects/get-object.ts → … → @aws-sdk/client-s3/dist-es/index.js (S3 is called …)']
 */
export function forbiddenModules(
  bundles: readonly FunctionBundle[],
  rules: readonly ForbiddenModules[],
): string[] {
  return bundles.flatMap((bundle) =>
    rules
      .filter((rule) => rule.kinds.includes(bundle.kind) && rule.allowedIn?.[bundle.name] === undefined)
      .flatMap((rule) => {
        const matches = (path: string) => rule.patterns.some((pattern) => matchesPattern(path, pattern));
        const found = [...bundle.modules.keys()].filter(matches);
        if (found.length === 0) return [];
        const chain = importChain(bundle, matches) ?? [bundle.entry, '(no import chain found)', found[0]!];
        return [`${bundle.name} bundles ${rule.what}: ${chain.map(moduleName).join(' → ')} (${rule.reason})`];
      }),
  );
}
