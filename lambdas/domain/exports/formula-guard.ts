/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a
 * formula, and a leading tab, carriage return or line feed can hide such a start from the eye
 * or move it to a line of its own. An export puts a `'` before such a cell, which a spreadsheet
 * shows as a text marker; the import takes it off again, so an export imports back as the same
 * objects.
 */

/** What a cell may start with (after any `'`s) for a spreadsheet to run it. */
const FORMULA_START = String.raw`[=+\-@\t\r\n]`;
const NEEDS_GUARD = new RegExp(`^'*${FORMULA_START}`);
const GUARDED = new RegExp(`^'+${FORMULA_START}`);

/**
 * A leading `'` where a spreadsheet would see a formula (and before `'`s that precede one).
 *
 * @example
 * withFormulaGuard('=SUM(A1)') // "'=SUM(A1)"
 * withFormulaGuard('\n=1+1') // "'\n=1+1"
 */
export const withFormulaGuard = (text: string): string => (NEEDS_GUARD.test(text) ? `'${text}` : text);

/**
 * The cell without the `'` an export added: only before a formula start (after any other
 * `'`), so that every exported value comes back exactly.
 *
 * @example
 * withoutFormulaGuard("'=SUM(A1)") // '=SUM(A1)'
 * withoutFormulaGuard("'plain") // "'plain"
 */
export const withoutFormulaGuard = (text: string): string => (GUARDED.test(text) ? text.slice(1) : text);
