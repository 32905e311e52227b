/**
 * Any add-checkpoint body a client may send, as mutations of a valid one (a character
 * replaced, deleted or inserted anywhere: the old size, a proof hash, the checkpoint text, a
 * signature; or an extension line added to the checkpoint): the witness answers one of the spec's statuses, never fails, and if it cosigns,
 * it cosigned the log's own checkpoint and nothing else.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { localSigner } from '../../lambdas/domain/ledger/log-signer';
import { fileWitnessStore } from '../../witness/file-store';
import { createWitness } from '../../witness/witness';
import { routeWitnessRequest } from '../../witness/witness-routes';
import { type TestLog, testLog } from '../support/witness-log';

const SPEC_STATUSES = [200, 400, 403, 404, 409, 422];
/** Characters that keep a line base64 or decimal, and the ones that break the format. */
const ALPHABET = [...'0123456789AZaz+/= \n\u2014old'];

let log: TestLog;
let validBody: string;
let genuineText: string;
const witnessKey = join(mkdtempSync(join(tmpdir(), 'witness-fuzz-')), 'witness-key.pem');

beforeAll(async () => {
  log = await testLog('log.example/fuzzed');
  validBody = await log.body(5, 9);
  genuineText = (await log.checkpoint(9)).split('\n\n')[0] as string;
});

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.constantFrom(...ALPHABET) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), text: fc.constant('') }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...ALPHABET) }),
  // An extension line added to the checkpoint's text: only its signature tells it from the log's.
  fc.record({
    kind: fc.constant('extension' as const),
    at: fc.constant(0),
    text: fc.stringMatching(/^[a-z0-9 ]{1,12}$/),
  }),
);

function mutate(
  body: string,
  change: { kind: 'replace' | 'delete' | 'insert' | 'extension'; at: number; text: string },
) {
  if (change.kind === 'extension') {
    const textEnd = body.indexOf('\n\n', body.indexOf('\n\n') + 2);
    return textEnd < 0 ? body : `${body.slice(0, textEnd)}\n${change.text}${body.slice(textEnd)}`;
  }
  const at = change.at % body.length;
  const skip = change.kind === 'insert' ? 0 : 1;
  return body.slice(0, at) + change.text + body.slice(at + skip);
}

it('answers a spec status to every mutated body, and cosigns only the genuine checkpoint', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (changes) => {
      // Prepare: a witness that cosigned size 5
      const witness = await createWitness({
        signer: localSigner('witness.example/fuzz', witnessKey),
        logs: [log.verifierKey],
        store: fileWitnessStore(mkdtempSync(join(tmpdir(), 'witness-fuzz-store-'))),
      });
      const setup = await routeWitnessRequest(witness, {
        method: 'POST',
        path: '/add-checkpoint',
        body: await log.body(0, 5),
      });
      expect(setup.status).toBe(200);
      const body = changes.reduce(mutate, validBody);
      // Act
      const response = await routeWitnessRequest(witness, { method: 'POST', path: '/add-checkpoint', body });
      // Assess
      expect(SPEC_STATUSES).toContain(response.status);
      if (response.status === 200) {
        const originHash = createHash('sha256').update(log.signer.keyName).digest('hex');
        const stored = await witness.latestCheckpoint(originHash);
        expect(stored.split('\n\n')[0]).toBe(genuineText);
      }
    }),
    { numRuns: 150 },
  );
});
