/**
 * Length of a string in characters (Unicode code points), the unit in which the spec
 * counts its limits. `'é'.length` is 1 but `'😀'.length` is 2 in UTF-16; this counts both as 1.
 *
 * @example
 * characterCount('😀a') // 2
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a string is Unicode text: no lone UTF-16 surrogate (which JSON can carry as `\ud800`
 * but UTF-8, DynamoDB and strict JSON readers cannot).
 *
 * @example
 * isUnicodeText('😀') // true
 * isUnicodeText('\ud800') // false
 */
export function isUnicodeText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/**
 * The form of a name used for uniqueness and for case-insensitive matching and sorting:
 * Unicode NFC, lower case.
 */
export function comparableName(name: string): string {
  // Normalized again after lower-casing: lower-casing can leave a string that is not in NFC (ẖ → H̱ → ẖ).
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}
