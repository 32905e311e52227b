/**
 * No regular expression of the runtime backtracks worse than linearly: each one in `lambdas/`
 * is fed adversarial strings of 10 KB and 100 KB, and its 100 KB run may take at most
 * {@link MAX_RATIO} times its 10 KB run (linear work gives about 10×, quadratic about 100×).
 *
 * Why a ratio and not a time: performance is never asserted by a timed test here (a loaded
 * machine makes any absolute limit flaky or loose), but growth is a property of the pattern:
 * the machine's speed cancels out of the ratio. Each time is the least of several runs (a pause
 * elsewhere on the machine only adds), and a ratio over the bound is measured again with more
 * runs before it fails. A pattern that is quadratic shows it already between 1 KB and 10 KB:
 * that step comes first, so that a regression fails in seconds rather than minutes.
 *
 * Why not an analyser: none is in node_modules (`safe-regex-test` only wraps `RegExp#test`),
 * and the analysers that handle modern syntax (recheck) ship a bundle of megabytes.
 *
 * Which patterns: all of them, found by the TypeScript parser, so that a new one is checked
 * without anyone listing it: every regular-expression literal is compiled and run as it is
 * written. A `new RegExp(...)` has no text to run, so each must be listed in
 * {@link CONSTRUCTED_PATTERNS} with the function that applies it (or why no input reaches it).
 * Configuration and responses of AWS are checked too (cheap, and today's configuration may be
 * tomorrow's input), except the ones listed in {@link NOT_INPUT} with their reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { withFormulaGuard, withoutFormulaGuard } from '../../lambdas/domain/exports/formula-guard';
import { extensionOf } from '../../lambdas/shared/file-types';
import { NAME_FORBIDDEN_CHARACTERS } from '../../lambdas/shared/name-text';
import { isUnicodeText } from '../../lambdas/shared/text';

const ROOT = join(__dirname, '..', '..');
const MAX_RATIO = 30;

/** Each pattern is run on these, repeated to the size, after its literal prefix or none. */
const UNITS = [
  ...'aZ09 \t\n.-_/:()[]{}\'"=+@$,;<>&#!x\\é',
  '\u202E',
  '\uD800',
  '\uDC00',
  'x000/',
  ':1',
  'a.',
  '. ',
  'a ',
  '(:',
  '&#',
  '%2',
];

/** Patterns no request input reaches, with the reason; they are not run. */
const NOT_INPUT: Record<string, string> = {
  'lambdas/http/cors.ts /\\/+$/': "the stack's allowed origins (configuration), read once at start",
};

/** Patterns built at run time: the function that applies each to input, or why none does. */
const CONSTRUCTED_PATTERNS: Record<string, ((input: string) => unknown) | string> = {
  "lambdas/shared/name-text.ts new RegExp(`[${NAME_FORBIDDEN_CHARACTERS}]`, 'u')": (input) =>
    new RegExp(`[${NAME_FORBIDDEN_CHARACTERS}]`, 'u').exec(input),
  "lambdas/domain/exports/formula-guard.ts new RegExp(`^'*${FORMULA_START}`)": withFormulaGuard,
  "lambdas/domain/exports/formula-guard.ts new RegExp(`^'+${FORMULA_START}`)": withoutFormulaGuard,
  'lambdas/shared/s3-requests.ts new RegExp(`<${tag}>([^<]*)</${tag}>`)':
    "reads S3's own XML responses, never request input",
};

/**
 * Functions that apply patterns to request input, run whole as well as their patterns: the
 * upload file name's extension (the pattern that was quadratic) and the Unicode check of every
 * string field.
 */
const INPUT_FUNCTIONS: Record<string, (input: string) => unknown> = {
  'file-types extensionOf (upload file names)': extensionOf,
  'text isUnicodeText (every string field)': isUnicodeText,
};

interface FoundPattern {
  /** `file pattern-text`: the key of the lists above. */
  key: string;
  /** The pattern, when it is a literal. */
  regex?: RegExp;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every regular-expression literal and `new RegExp(...)` in the runtime's sources. */
function patternsOfRuntime(): FoundPattern[] {
  const found: FoundPattern[] = [];
  for (const path of sourceFiles(join(ROOT, 'lambdas'))) {
    const file = relative(ROOT, path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(source);
        const end = text.lastIndexOf('/');
        found.push({ key: `${file} ${text}`, regex: new RegExp(text.slice(1, end), text.slice(end + 1)) });
      } else if (ts.isNewExpression(node) && node.expression.getText(source) === 'RegExp') {
        found.push({ key: `${file} ${node.getText(source)}` });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const METACHARACTERS = new Set([...'[](){}|?*+.^$']);
const QUANTIFIERS = new Set([...'?*+{']);

/**
 * The literal text a pattern starts with (`^Bearer +...` → `Bearer`): where backtracking
 * starts, so that inputs begin with it. An escaped punctuation mark counts as itself.
 */
function literalPrefix(source: string): string {
  let prefix = '';
  let at = source.startsWith('^') ? 1 : 0;
  while (at < source.length) {
    const char = source.charAt(at);
    if (char === '\\') {
      const next = source.charAt(at + 1);
      if (/^[A-Za-z0-9]$/.test(next)) break;
      if (QUANTIFIERS.has(source.charAt(at + 2))) break;
      prefix += next;
      at += 2;
      continue;
    }
    if (METACHARACTERS.has(char) || QUANTIFIERS.has(source.charAt(at + 1))) break;
    prefix += char;
    at += 1;
  }
  return prefix;
}

/**
 * What ends each input: a character that most classes refuse, a space (`\S`, `[^\s]`) and a
 * line feed (`.`), for a pattern fails late only on a character that its runs refuse.
 */
const ENDINGS = ['!', ' ', '\n'];

/** The inputs of a pattern: each unit repeated to `size`, after each prefix, then each ending. */
function adversarialInputs(prefixes: string[]): Array<{ label: string; of: (size: number) => string }> {
  return [...new Set(prefixes)].flatMap((prefix) =>
    UNITS.flatMap((unit) =>
      ENDINGS.filter((ending) => ending !== unit).map((ending) => ({
        label: `${JSON.stringify(prefix)} + ${JSON.stringify(unit)}×n + ${JSON.stringify(ending)}`,
        of: (size: number) => `${prefix}${unit.repeat(Math.ceil(size / unit.length))}${ending}`,
      })),
    ),
  );
}

/** The least time of `runs` runs of each input, the inputs taken in turns. */
function leastTimes(run: (input: string) => unknown, inputs: string[], runs: number): number[] {
  const least = inputs.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < runs; round += 1) {
    inputs.forEach((input, at) => {
      const start = process.hrtime.bigint();
      run(input);
      least[at] = Math.min(least[at] ?? 0, Number(process.hrtime.bigint() - start));
    });
  }
  return least;
}

/** The ratio of the larger input's time to the smaller's, measured again when it looks high. */
function growth(run: (input: string) => unknown, small: string, large: string): number {
  let ratio = Number.POSITIVE_INFINITY;
  for (const runs of [3, 15, 40]) {
    const [smallTime = 1, largeTime = 0] = leastTimes(run, [small, large], runs);
    ratio = largeTime / Math.max(smallTime, 1);
    if (ratio <= MAX_RATIO) return ratio;
  }
  return ratio;
}

/** The families on which `apply` grows faster than linearly, with their ratio. */
function superLinearFamilies(apply: (input: string) => unknown, prefixes: string[]): string[] {
  // A refusal is a response too (a lone surrogate, say): its cost is what is timed.
  const run = (input: string) => {
    try {
      return apply(input);
    } catch (error) {
      return error;
    }
  };
  const failures: string[] = [];
  for (const family of adversarialInputs(prefixes)) {
    run(family.of(1_000)); // compiled before it is timed
    // Quadratic shows between 1 KB and 10 KB: the 100 KB run (minutes, then) is never made.
    const early = growth(run, family.of(1_000), family.of(10_000));
    const ratio = early > MAX_RATIO ? early : growth(run, family.of(10_000), family.of(100_000));
    if (ratio > MAX_RATIO) failures.push(`${family.label}: ${ratio.toFixed(0)}× for 10× the input`);
  }
  return failures;
}

const runtimePatterns = patternsOfRuntime();

describe('the patterns of the runtime', () => {
  it('finds the patterns in lambdas/ (the parser sees them)', () => {
    // Assess
    expect(runtimePatterns.length).toBeGreaterThan(30);
    expect(runtimePatterns.map((pattern) => pattern.key)).toContain('lambdas/shared/file-types.ts /\\p{L}/u');
  });

  it('lists every pattern built at run time with the function that applies it', () => {
    // Act
    const unlisted = runtimePatterns
      .filter((pattern) => !pattern.regex && !(pattern.key in CONSTRUCTED_PATTERNS))
      .map((pattern) => pattern.key);
    // Assess
    expect(unlisted).toEqual([]);
  });
});

describe('every pattern grows linearly on 100 KB adversarial input', () => {
  const literals = runtimePatterns.filter(
    (pattern): pattern is Required<FoundPattern> =>
      pattern.regex !== undefined && !(pattern.key in NOT_INPUT),
  );

  it.each(literals.map((pattern) => [pattern.key, pattern.regex] as const))('%s', (_key, regex) => {
    // Arrange: global patterns run to the end (as `replace` does), others to their first match.
    const run = (input: string) => {
      regex.lastIndex = 0;
      return regex.global ? input.replace(regex, '') : regex.exec(input);
    };
    // Act
    const failures = superLinearFamilies(run, ['', literalPrefix(regex.source)]);
    // Assess
    expect(failures).toEqual([]);
  });

  it.each(
    Object.entries(CONSTRUCTED_PATTERNS).filter(
      (entry): entry is [string, (input: string) => unknown] => typeof entry[1] === 'function',
    ),
  )('%s (through the function that applies it)', (_key, run) => {
    // Act
    const failures = superLinearFamilies(run, ['', "'", '=']);
    // Assess
    expect(failures).toEqual([]);
  });

  it.each(Object.entries(INPUT_FUNCTIONS))('%s', (_name, run) => {
    // Act
    const failures = superLinearFamilies(run, ['', '.']);
    // Assess
    expect(failures).toEqual([]);
  });
});

describe('the file-name extension pattern that was quadratic', () => {
  it('reads extensions as before, with string searches', () => {
    // Assess
    expect(extensionOf('Scan.PDF')).toBe('.pdf');
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
    expect(extensionOf('scan 2024.01.05')).toBe('');
    expect(extensionOf('v 1. final')).toBe('');
    expect(extensionOf('no extension')).toBe('');
    expect(extensionOf('données.été')).toBe('.été');
  });

  it('grows linearly on a long last dot-part that ends in a space (the 15 KB name of the report)', () => {
    // Arrange
    const nameOf = (size: number) => `.${'a'.repeat(size)} `;
    extensionOf(nameOf(1_000));
    // Act
    const ratio = growth(extensionOf, nameOf(10_000), nameOf(100_000));
    // Assess
    expect(ratio).toBeLessThanOrEqual(MAX_RATIO);
  });
});
