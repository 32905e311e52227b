/**
 * The canonical serialization of a ledger event (docs/ledger.md, "Canonical event serialization"):
 * the JSON object of exactly the hashed fields, members sorted by key (UTF-16 code units), no white
 * space, strings and numbers written as ECMAScript's JSON.stringify writes them (the same text as
 * RFC 8785, JCS, for these values). The event hash is SHA-256 of its UTF-8 bytes.
 */
import { sha256, toHex, utf8 } from './bytes.js';

/** The fields an event hash covers; `hash` and `txId` (the same value) are not hashed. */
export const HASHED_EVENT_FIELDS = [
  'action',
  'chainId',
  'changes',
  'eventDescription',
  'performedBy',
  'prevHash',
  'principal',
  'sequence',
  'timestamp',
] as const;

/**
 * Canonical JSON: object keys sorted by code unit, no white space, `undefined` members left out.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('Not a JSON number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${members.join(',')}}`;
}

/** The canonical bytes' text of an event: its hashed fields only; throws when one is missing. */
export function canonicalEventText(event: Record<string, unknown>): string {
  const body: Record<string, unknown> = {};
  for (const field of HASHED_EVENT_FIELDS) {
    if (!(field in event)) throw new Error(`the event has no ${field}`);
    body[field] = event[field];
  }
  return canonicalJson(body);
}

/** The event hash as docs/ledger.md's canonical serialization defines it (lowercase hex). */
export async function eventHash(event: Record<string, unknown>): Promise<string> {
  return toHex(await sha256(utf8(canonicalEventText(event))));
}
