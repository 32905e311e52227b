/**
 * Fuzz tests (fast-check) of the character counting the spec's limits depend on.
 */
import fc from 'fast-check';
import { createCategoryBody } from '../../lambdas/domain/categories/category-schemas';
import { ValidationError } from '../../lambdas/shared/errors';
import { NAME_FORBIDDEN_CHARACTERS } from '../../lambdas/shared/name-text';
import { characterCount, comparableName } from '../../lambdas/shared/text';

/** One Unicode scalar value (any code point but a lone surrogate), astral planes included. */
const scalarValue = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((point) => point < 0xd800 || point > 0xdfff)
  .map((point) => String.fromCodePoint(point));

/** A scalar value a name may hold (`#shared/name-text.js`: no control or bidi formatting character). */
const NOT_IN_NAMES = new RegExp(`[${NAME_FORBIDDEN_CHARACTERS}]`, 'u');
const nameCharacter = scalarValue.filter((character) => !NOT_IN_NAMES.test(character));

/** Strings of exactly `min` to `max` characters (code points). */
const codePointString = (min: number, max: number) =>
  fc.string({ unit: scalarValue, minLength: min, maxLength: max });

describe('characterCount (property)', () => {
  it('equals the number of code points [...s].length for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(characterCount(text)).toBe([...text].length);
      }),
    );
  });

  it('counts each astral-plane character once although it is two UTF-16 units', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0x10000, max: 0x10ffff }), { maxLength: 50 }), (points) => {
        const text = String.fromCodePoint(...points);
        expect(characterCount(text)).toBe(points.length);
        expect(text.length).toBe(points.length * 2);
      }),
    );
  });
});

describe('category name length (property)', () => {
  it('accepts any name of 2 to 100 code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: nameCharacter, minLength: 2, maxLength: 100 }), (name) => {
        expect(createCategoryBody.parse({ name })).toEqual({ name });
      }),
    );
  });

  it('refuses any name of 101 to 300 code points with LENGTH_INVALID', () => {
    fc.assert(
      fc.property(codePointString(101, 300), (name) => {
        let thrown: unknown;
        try {
          createCategoryBody.parse({ name });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ValidationError);
        expect((thrown as ValidationError).issues).toEqual([
          { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
        ]);
      }),
    );
  });
});

describe('comparableName (property)', () => {
  it('is the same for a name and its lower-case form, for any Unicode name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (name) => {
        expect(comparableName(name.toUpperCase())).toBe(comparableName(name.toUpperCase().toLowerCase()));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the same form for "ẖ-tools" and its upper case "H̱-TOOLS" (no precomposed capital)', () => {
    // Prepare: U+1E96 upper-cases to H + U+0331; lower-casing that gives back a decomposed ẖ
    const lower = '\u1e96-tools';
    const upper = lower.toUpperCase();
    // Act / Assess
    expect(upper).toBe('H\u0331-TOOLS');
    expect(comparableName(upper)).toBe(comparableName(lower));
  });

  it('is in NFC for any name, upper-cased ones included, so that it can serve as a key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (name) => {
        const comparable = comparableName(name.toUpperCase());
        expect(comparable.normalize('NFC')).toBe(comparable);
      }),
      { numRuns: 5000 },
    );
  });
});
