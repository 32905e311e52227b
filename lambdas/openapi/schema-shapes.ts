/** Shapes the extension's response schemas share: closed objects and pages of a named schema. */
import type { JsonSchema } from '#shared/schema.js';

/** An object with exactly these properties, all required but `optional`. */
export const closed = (
  properties: Record<string, JsonSchema>,
  description: string,
  optional: readonly string[] = [],
): JsonSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  additionalProperties: false,
});

/** The pagination wrapper (spec 2.1) of items of the component schema `name`. */
export const pageOf = (name: string, description: string): JsonSchema => ({
  type: 'object',
  description,
  properties: {
    data: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
    pagination: { $ref: '#/components/schemas/Pagination' },
  },
  required: ['data', 'pagination'],
  additionalProperties: false,
});
