/** CSV injection guard of exports, and its removal on import. */
import { withFormulaGuard, withoutFormulaGuard } from '../../lambdas/domain/exports/formula-guard';

describe('withFormulaGuard', () => {
  it.each([
    ['=SUM(A1:A9)'],
    ['+1+cmd|calc'],
    ['-2+3'],
    ['@SUM(1)'],
    ['\tTabbed'],
    ['\rReturned'],
    ['\nFed'],
    ['\r\n=1+1'],
    ["'=quoted"],
  ])('guards %j, and the import gives it back', (value) => {
    // Act
    const guarded = withFormulaGuard(value);
    // Assess
    expect(guarded).toBe(`'${value}`);
    expect(withoutFormulaGuard(guarded)).toBe(value);
  });

  it.each([['plain'], ["'plain"], [' =not at the start'], ['a\n=b'], ['']])('leaves %j alone', (value) => {
    expect(withFormulaGuard(value)).toBe(value);
    expect(withoutFormulaGuard(value)).toBe(value);
  });
});
