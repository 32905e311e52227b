/**
 * The import graph of `lambdas/` (`docs/architecture.md`, "The layers of the code"): no cycles, and layers that go one way,
 * entry points → HTTP runtime → operation table → domain → repositories → shared.
 *
 * The graph is read from the source text (static `from '…'` and dynamic `import('…')`), with
 * the `#shared/*`, `#http/*`, `#domain/*` and `#repositories/*` aliases of package.json.
 * Imports that leave `lambdas/` (the verifier package, `lib/api-gateway-settings.ts`) are not
 * part of this graph.
 *
 * Type-only imports count for cycles: a type-only cycle is still two modules that cannot be
 * read one before the other. For the layers they count too, with one exception: a repository
 * may import a domain schema's value type (a status, a sort order, an event's shape), because
 * the domain schema is where an entity's values are declared once and the type is
 * erased at run time, so the repository never loads the domain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const lambdasDir = join(root, 'lambdas');

/**
 * Runtime imports that go up a layer, each with its reason. Each target imports nothing above
 * shared/, so none of them can close a cycle through the repository.
 * - `log-tiles.ts` and `log-tree.ts` are pure (they import only `node:crypto`): the C2SP
 *   tlog-tiles layout and its hashing, which the domain uses for proofs and the tile store for
 *   the paths and contents it writes.
 * - `category-schemas.ts` declares the category statuses once; the list by `status=all` reads
 *   the index of each of them.
 */
const ALLOWED_UPWARD = new Set([
  'repositories/category-repository.ts → domain/categories/category-schemas.ts',
  'repositories/log-tile-store.ts → domain/ledger/log-tiles.ts',
  'repositories/log-tile-store.ts → domain/ledger/log-tree.ts',
]);

/** Layers from the top; a module may import from its own layer and those below it. */
const LAYERS = ['entry', 'http', 'operations', 'domain', 'repositories', 'shared'] as const;
type Layer = (typeof LAYERS)[number];

/** The layer of a module, by its path under `lambdas/`. */
function layerOf(modulePath: string): Layer {
  const [top] = modulePath.split('/');
  switch (top) {
    // Handlers, jobs and the authorizer are what Lambda runs; the OpenAPI document reads the
    // whole operation table and the HTTP runtime's idempotency header, as a handler does.
    case 'handlers':
    case 'jobs':
    case 'authorizer':
    case 'openapi':
      return 'entry';
    case 'http':
      return 'http';
    // The table, its groups of rows and what a row holds.
    case 'operations.ts':
    case 'operations':
    case 'operation-row.ts':
      return 'operations';
    case 'domain':
      return 'domain';
    case 'repositories':
      return 'repositories';
    case 'shared':
      return 'shared';
    default:
      throw new Error(`lambdas/${modulePath} is in no layer; add its folder to layerOf`);
  }
}

const ALIASES: Record<string, string> = {
  '#shared/': 'shared/',
  '#http/': 'http/',
  '#domain/': 'domain/',
  '#repositories/': 'repositories/',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module (path under `lambdas/`) a specifier names, or undefined for a package. */
function resolveSpecifier(fromModule: string, specifier: string): string | undefined {
  let target: string | undefined;
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  if (alias) target = ALIASES[alias] + specifier.slice(alias.length);
  else if (specifier.startsWith('.')) target = join(dirname(fromModule), specifier);
  // Outside lambdas/ (the verifier package, lib/): not part of the graph.
  if (target === undefined || target.startsWith('..')) return undefined;
  return target.replace(/\.js$/, '.ts');
}

/** Modules under `lambdas/` mapped to the modules they import, and whether only types. */
function importGraph(): Map<string, Map<string, { typeOnly: boolean }>> {
  const graph = new Map<string, Map<string, { typeOnly: boolean }>>();
  // A whole `import … from '…'` or `export … from '…'` statement, a side-effect import, or a
  // dynamic import: group 1 is the statement's head when there is one, group 2 the specifier.
  const importPattern =
    /(?:^\s*((?:import|export)\b[^;'"]*?)\bfrom\s*|^\s*import\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm;
  for (const file of sourceFiles(lambdasDir)) {
    const module = relative(lambdasDir, file);
    const imports = new Map<string, { typeOnly: boolean }>();
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const target = resolveSpecifier(module, match[2] as string);
      if (target === undefined) continue;
      const typeOnly = /^(?:import|export)\s+type\b/.test(match[1] ?? '');
      imports.set(target, { typeOnly: typeOnly && (imports.get(target)?.typeOnly ?? true) });
    }
    graph.set(module, imports);
  }
  return graph;
}

/** Every import cycle, each as the path of modules from its first module back to it. */
function cyclesOf(graph: ReturnType<typeof importGraph>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (module: string): void => {
    const index = onPath.indexOf(module);
    if (index >= 0) {
      cycles.push([...onPath.slice(index), module]);
      return;
    }
    if (done.has(module)) return;
    onPath.push(module);
    for (const target of graph.get(module)?.keys() ?? []) visit(target);
    onPath.pop();
    done.add(module);
  };
  for (const module of [...graph.keys()].sort()) visit(module);
  return cycles;
}

describe('the import graph of lambdas/', () => {
  const graph = importGraph();

  it('resolves every relative and aliased import to a module that exists', () => {
    // Prepare / Act
    const missing = [...graph].flatMap(([module, imports]) =>
      [...imports.keys()].filter((target) => !graph.has(target)).map((target) => `${module} → ${target}`),
    );

    // Assess
    expect(missing).toEqual([]);
  });

  it('has no import cycles', () => {
    // Act
    const cycles = cyclesOf(graph).map((cycle) => cycle.join(' → '));

    // Assess
    expect(cycles).toEqual([]);
  });

  it('loads no AWS client with the operation table, which npm start and the synth read first', () => {
    // Prepare: the modules `operations.ts` loads at run time (type-only imports are erased).
    const loaded = new Set<string>();
    const visit = (module: string): void => {
      if (loaded.has(module)) return;
      loaded.add(module);
      for (const [target, { typeOnly }] of graph.get(module) ?? []) if (!typeOnly) visit(target);
    };

    // Act
    visit('operations.ts');

    // Assess: the clients read the stack's endpoints at load, before local mode has set them.
    expect(loaded.has('shared/clients.ts')).toBe(false);
  });

  it('imports only from the same layer or a layer below', () => {
    // Prepare
    const rank = (module: string) => LAYERS.indexOf(layerOf(module));
    const domainTypeInRepository = (module: string, target: string, typeOnly: boolean) =>
      typeOnly && layerOf(module) === 'repositories' && layerOf(target) === 'domain';

    // Act
    const upward = [...graph].flatMap(([module, imports]) =>
      [...imports]
        .filter(([target]) => graph.has(target) && rank(target) < rank(module))
        .filter(([target, { typeOnly }]) => !domainTypeInRepository(module, target, typeOnly))
        .map(([target]) => `${module} → ${target}`)
        .filter((edge) => !ALLOWED_UPWARD.has(edge)),
    );

    // Assess
    expect(upward).toEqual([]);
  });
});
