/**
 * A third party re-hashes our events with nothing but docs/ledger.md ("Canonical event
 * serialization"): the serializer below is written from that text, and imports none of our
 * code. Every event of objects with awkward values (quotes, backslashes, control characters,
 * non-ASCII, emoji, numbers, nesting) must hash to the `hash` the API shows.
 */
import { createHash } from 'node:crypto';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { requestEvents } from '../support/ledger-requests';
import { companyPrincipal } from '../support/principals';

// --- From docs/ledger.md, rule by rule ----------------------------------------------------
const HASHED = [
  'action',
  'chainId',
  'changes',
  'eventDescription',
  'performedBy',
  'prevHash',
  'principal',
  'sequence',
  'timestamp',
];
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

function writeString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (SHORT_ESCAPES[char]) out += SHORT_ESCAPES[char];
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

function write(value: unknown): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return writeString(value);
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  const record = value as Record<string, unknown>;
  // Keys compared as sequences of UTF-16 code units.
  const keys = Object.keys(record).sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
    }
    return a.length - b.length;
  });
  return `{${keys.map((key) => `${writeString(key)}:${write(record[key])}`).join(',')}}`;
}

const readmeHash = (event: Record<string, unknown>) =>
  createHash('sha256')
    .update(Buffer.from(write(Object.fromEntries(HASHED.map((field) => [field, event[field]]))), 'utf8'))
    .digest('hex');
// -------------------------------------------------------------------------------------------

describe('docs/ledger.md defines the event hash', () => {
  it('reproduces every hash and link of events with awkward values', async () => {
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const object = await givenObject(principal, place, {
      owner: 'Zoë "Z" \\ Ünal 🚀',
      metadata: {
        b: 1.5,
        a: [true, null, 'x\ty'],
        Z: { nested: 'é\u0001\u001f' },
        big: 1e21,
        small: -0.000001,
      },
    });
    for (const owner of ['Ω, not ASCII', '\u00e9\u0301 e-acute twice', 'plain']) {
      await invoke(updateObject, {
        method: 'PUT',
        path: `/v2/objects/${object.id}`,
        principal,
        pathParameters: { objectId: object.id },
        body: {
          action: 'transfer',
          owner,
          eventDescription: 'hand-over\n</script> & "quotes"',
          performedBy: '👩‍🔧',
        },
      });
    }
    const events = await requestEvents(principal, object.id);
    expect(events).toHaveLength(4);
    let previous = '0'.repeat(64);
    for (const event of events) {
      expect(readmeHash(event)).toBe(event.hash);
      expect(event.prevHash).toBe(previous);
      previous = event.hash as string;
    }
  });
});
