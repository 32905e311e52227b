/**
 * Reading the parts of an API Gateway proxy event into validated values, with the schemas of
 * the operation table. Malformed JSON and bodies that are not JSON objects are 400s.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#shared/errors.js';
import type { ObjectSchema } from '#shared/schema.js';

/** A header's value, whatever the case of its name. */
export function headerValue(
  headers: APIGatewayProxyEvent['headers'] | null,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** The body as text (API Gateway base64-encodes binary media types). */
export function bodyText(event: APIGatewayProxyEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? bodyBytes(event).toString('utf8') : event.body;
}

/** The body's bytes (API Gateway base64-encodes binary media types). */
export function bodyBytes(event: APIGatewayProxyEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

/** Parses a JSON body; an empty body reads as `{}`, so that missing fields report `REQUIRED`. */
export function parseJsonBody(event: APIGatewayProxyEvent): unknown {
  const text = bodyText(event);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(
      [{ field: 'body', code: 'FORMAT_INVALID', message: 'The body is not valid JSON' }],
      'The body is not valid JSON',
    );
  }
}

// biome-ignore lint/suspicious/noExplicitAny: any object schema
export function parsePart<S extends ObjectSchema<any>>(
  schema: S,
  input: unknown,
  part: string,
): ReturnType<S['parse']> {
  // Only path and query may be absent (API Gateway sends null for none); a JSON `null` body is not an object.
  const value = input === null && part !== 'body' ? {} : input;
  return schema.parse(value, part) as ReturnType<S['parse']>;
}
