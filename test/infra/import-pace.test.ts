/**
 * The import function's pace (`import-pace.ts`): the template gives it the default rows a second
 * for a company's imports, context `importRowsPerSecond` another (0: none), and synth refuses a
 * value that is no whole number of at least 0.
 */
import { DEFAULT_IMPORT_ROWS_PER_SECOND } from '../../lambdas/domain/imports/import-pace';
import { synthesizeStack } from './synthesized-stack';

/** The import function's `IMPORT_ROWS_PER_SECOND` in the template synthesized with `context`. */
function paceInTemplate(context: Record<string, string> = {}): unknown {
  const synthesized = synthesizeStack(context);
  const importFunction = synthesized.stack.backgroundJobs.functions.get('importObjects');
  if (!importFunction) throw new Error('No import function');
  const resource = synthesized.template.toJSON().Resources[synthesized.logicalIdOf(importFunction)];
  return resource.Properties.Environment.Variables.IMPORT_ROWS_PER_SECOND;
}

describe('the pace of imports in the template', () => {
  it('is the default without a context value', () => {
    expect(paceInTemplate()).toBe(String(DEFAULT_IMPORT_ROWS_PER_SECOND));
  });

  it.each([
    ['120', '120'],
    ['0', '0'],
  ])('is %s with -c importRowsPerSecond=%s', (given, expected) => {
    expect(paceInTemplate({ importRowsPerSecond: given })).toBe(expected);
  });

  it.each(['-1', '1.5', 'fast'])('refuses -c importRowsPerSecond=%s at synth', (given) => {
    expect(() => paceInTemplate({ importRowsPerSecond: given })).toThrow(
      `importRowsPerSecond must be a whole number of at least 0 (got ${given})`,
    );
  });
});
