/** Request schemas of the log's operations. */
import { integer, object, oneOf, optional, required, string } from '#shared/schema.js';

export const tilePathParameters = object({
  tilePath: required(
    string({ min: 1, max: 200 }),
    'a C2SP tile path: `tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]`',
  ),
});

export const eventProofPath = object({
  objectId: required(string({ format: 'uuid' })),
  // Path parameters are strings in the document; the service reads the number (a bad one is 404).
  sequence: required(string({ min: 1, max: 10 }), "the event's sequence number (1, 2, ...)"),
});

export const eventProofQuery = object({
  treeSize: optional(
    integer({ min: 1, fromQueryString: true }),
    'a published tree size; the latest when absent',
  ),
  format: optional(oneOf(['json', 'tlog-proof'] as const), '`tlog-proof`: the C2SP tlog-proof text'),
});

export const consistencyQuery = object({
  from: required(integer({ min: 0, fromQueryString: true }), 'the older published tree size'),
  to: required(integer({ min: 0, fromQueryString: true }), 'the newer published tree size'),
});
