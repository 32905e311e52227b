/** Names refuse control and bidirectional formatting characters; other text passes as it is. */

import { ValidationError } from '../../lambdas/shared/errors';
import { nameText } from '../../lambdas/shared/name-text';
import { object, required, string } from '../../lambdas/shared/schema';

const body = object({ name: required(nameText(string({ min: 1, max: 100 }))) });

const issuesOf = (name: string) => {
  try {
    body.parse({ name });
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues;
  }
};

describe('nameText', () => {
  it.each([
    ['NUL', 'a\u0000b', 'U+0000'],
    ['a tab', 'a\tb', 'U+0009'],
    ['a line feed', 'a\nb', 'U+000A'],
    ['a carriage return', 'a\rb', 'U+000D'],
    ['an escape', '\u001b[31mred', 'U+001B'],
    ['DEL', 'a\u007fb', 'U+007F'],
    ['a C1 control', 'a\u0085b', 'U+0085'],
    ['a C1 control (CSI)', 'a\u009bb', 'U+009B'],
    ['LRE', 'a\u202Ab', 'U+202A'],
    ['RLE', 'a\u202Bb', 'U+202B'],
    ['PDF', 'a\u202Cb', 'U+202C'],
    ['LRO', 'a\u202Db', 'U+202D'],
    ['RLO', 'invoice\u202Efdp.exe', 'U+202E'],
    ['LRI', 'a\u2066b', 'U+2066'],
    ['RLI', 'a\u2067b', 'U+2067'],
    ['FSI', 'a\u2068b', 'U+2068'],
    ['PDI', 'a\u2069b', 'U+2069'],
  ])('refuses %s with FORMAT_INVALID naming the field and the character', (_label, name, codePoint) => {
    expect(issuesOf(name)).toEqual([
      {
        field: 'name',
        code: 'FORMAT_INVALID',
        message: `name may not contain control or bidirectional formatting characters (${codePoint})`,
      },
    ]);
  });

  it.each([
    ['letters of any script', 'Pompes à eau 水泵 насосы'],
    ['right-to-left text', 'משאבות'],
    ['the direction marks LRM, RLM and ALM', 'משאבות\u200E 2024 \u200F\u061C'],
    ['emoji and joiners', '👩‍🔧 tools'],
    ['a no-break space', 'a\u00a0b'],
  ])('takes %s', (_label, name) => {
    expect(issuesOf(name)).toEqual([]);
  });

  it('reports the length first, as the inner schema does', () => {
    expect(issuesOf('')).toEqual([expect.objectContaining({ code: 'LENGTH_INVALID' })]);
  });
});
