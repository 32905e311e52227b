/**
 * Names people read (category, subcategory and object names, an object's owner, wallet
 * usernames, webhook descriptions) hold no control characters and no bidirectional formatting
 * that outlives the name. A control character (C0, DEL, C1: NUL, line breaks, escapes) breaks
 * logs, CSV and terminals; an embedding, override or isolate (U+202A-U+202E, U+2066-U+2069)
 * reorders what follows it, so that a name shows as another ("Trojan Source"). The marks
 * U+200E, U+200F and U+061C stay allowed: they only set the direction of their neighbours and
 * are how mixed right-to-left names are written correctly.
 */
import { type FieldIssue, ValidationError } from './errors.js';
import { type Schema, string } from './schema.js';

/** The characters a name may not hold, as a regular-expression class body. */
export const NAME_FORBIDDEN_CHARACTERS = String.raw`\p{Cc}\u202A-\u202E\u2066-\u2069`;
const FORBIDDEN = new RegExp(`[${NAME_FORBIDDEN_CHARACTERS}]`, 'u');

const codePointOf = (character: string) =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * `schema`, refusing a value with a control or bidirectional formatting character
 * (`FORMAT_INVALID`, naming the field and the character).
 *
 * @example
 * nameText(string({ min: 2, max: 100 })).read('Pumps\u202Egpj', 'name', issues)
 * // undefined; issues: [{ field: 'name', code: 'FORMAT_INVALID', message: 'name may not contain ... (U+202E)' }]
 */
export function nameText(schema: Schema<string>): Schema<string> {
  return {
    read(input: unknown, field: string, issues: FieldIssue[]) {
      const value = schema.read(input, field, issues);
      if (value === undefined) return undefined;
      const found = FORBIDDEN.exec(value)?.[0];
      if (found !== undefined) {
        issues.push({
          field,
          code: 'FORMAT_INVALID',
          message: `${field} may not contain control or bidirectional formatting characters (${codePointOf(found)})`,
        });
        return undefined;
      }
      return value;
    },
    // A schema with a pattern of its own says the rule in it (the wallet username).
    jsonSchema: {
      pattern: `^[^${NAME_FORBIDDEN_CHARACTERS}]*$`,
      ...schema.jsonSchema,
    },
  };
}

/** The longest file name an upload keeps (what common file systems allow). */
export const FILE_NAME_MAX_LENGTH = 255;

/**
 * An uploaded file's name: 1 to {@link FILE_NAME_MAX_LENGTH} characters, under the rule of names.
 * Its length is checked before any pattern sees it.
 */
export const fileNameText = (): Schema<string> => nameText(string({ min: 1, max: FILE_NAME_MAX_LENGTH }));

const uploadFileName = fileNameText();

/**
 * Refuses the name a multipart file part carries, before anything else reads it: 400
 * `VALIDATION_ERROR` naming `field` (the part's field). A part without a name passes; what a
 * nameless file means is the reader's to decide.
 *
 * @example
 * checkUploadFileName('a'.repeat(300), 'file') // throws ValidationError [{ field: 'file', code: 'LENGTH_INVALID', ... }]
 */
export function checkUploadFileName(fileName: string, field: string): void {
  if (fileName === '') return;
  const issues: FieldIssue[] = [];
  // Read as "file name", so that the messages say which part of the field is wrong.
  uploadFileName.read(fileName, 'file name', issues);
  if (issues.length > 0) throw new ValidationError(issues.map((issue) => ({ ...issue, field })));
}
