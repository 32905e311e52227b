/**
 * Every function's bundle size against its budget (`bench/bundle-budgets.ts`), and the forbidden
 * modules found, as the test checks them. With `--write`, sets every budget to today's size plus
 * the margin: run it when a bundle grew for a reason, and say the reason in the commit.
 *
 *   npx tsx scripts/bundle-budgets.ts           # the table; exit code 1 on a violation
 *   npx tsx scripts/bundle-budgets.ts --write   # refresh the budgets
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUDGET_MARGIN,
  BUNDLE_BUDGETS_KB,
  FORBIDDEN_MODULES,
  type FunctionName,
} from '../bench/bundle-budgets';
import { forbiddenModules, overBudget } from '../bench/support/bundle-guard';
import { bundleFunctions, stackFunctions } from '../bench/support/stack-bundles';
import { projectRoot } from '../lib/project-paths';

const BUDGETS_FILE = join(projectRoot, 'bench', 'bundle-budgets.ts');
/** The object literal `--write` replaces, from its opening line to its closing brace. */
const BUDGETS_BLOCK = /(export const BUNDLE_BUDGETS_KB: Record<FunctionName, number> = \{\n)[\s\S]*?^\};\n/m;

/** Today's size plus the margin, in KB, rounded up. */
const budgetKbOf = (bytes: number): number => Math.ceil((bytes * (1 + BUDGET_MARGIN)) / 1024);

async function main(): Promise<void> {
  const write = process.argv.includes('--write');
  const bundles = await bundleFunctions(stackFunctions());
  const budgets: Partial<Record<FunctionName, number>> = BUNDLE_BUDGETS_KB;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  for (const bundle of bundles) {
    const budget = budgets[bundle.name];
    const headroomPercent = budget === undefined ? undefined : ((budget * 1024) / bundle.bytes - 1) * 100;
    const headroom = headroomPercent === undefined ? '' : `${headroomPercent.toFixed(1)} %`;
    console.log(
      [
        bundle.name.padEnd(28),
        bundle.kind.padEnd(7),
        `${kb(bundle.bytes)} KB`.padStart(10),
        `${budget ?? '-'} KB`.padStart(8),
        headroom.padStart(9),
      ].join(' '),
    );
  }
  const total = bundles.reduce((sum, bundle) => sum + bundle.bytes, 0);
  const largest = bundles.reduce((top, bundle) => (bundle.bytes > top.bytes ? bundle : top));
  console.log(
    `${bundles.length} functions, ${kb(total)} KB in all; the largest ${largest.name} (${kb(largest.bytes)} KB)`,
  );
  const forbidden = forbiddenModules(bundles, FORBIDDEN_MODULES);
  for (const message of forbidden) console.log(`forbidden: ${message}`);
  if (write) {
    const lines = bundles.map((bundle) => `  ${bundle.name}: ${budgetKbOf(bundle.bytes)},\n`).join('');
    const source = readFileSync(BUDGETS_FILE, 'utf8');
    if (!BUDGETS_BLOCK.test(source)) throw new Error(`No BUNDLE_BUDGETS_KB block in ${BUDGETS_FILE}`);
    writeFileSync(
      BUDGETS_FILE,
      source.replace(BUDGETS_BLOCK, (_block, opening: string) => `${opening}${lines}};\n`),
    );
    console.log(`Budgets written to bench/bundle-budgets.ts (today's sizes + ${BUDGET_MARGIN * 100} %).`);
    return;
  }
  const over = overBudget(bundles, budgets);
  for (const message of over) console.log(`over budget: ${message}`);
  if (over.length > 0 || forbidden.length > 0) process.exitCode = 1;
}

void main();
