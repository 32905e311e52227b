/**
 * The typed client in `client/`: files are typed as Blob, error codes as literal unions, and
 * bodies holding a Blob go as multipart/form-data. (That the committed types are fresh is
 * checked by `test/e2e/typed-client-generation.test.ts`, which runs the generator.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeBody } from '../../client/asset-registry-client';

describe('client/openapi-types.ts', () => {
  it('types file parts and downloads as Blob, error codes and enums as literal unions', () => {
    // Act
    const generated = readFileSync(join(__dirname, '..', '..', 'client', 'openapi-types.ts'), 'utf8');
    // Assess
    expect(generated).toMatch(/\bfile: Blob;/);
    expect(generated).toMatch(/"image\/png": Blob;/);
    expect(generated).toMatch(/code: "UNAUTHORIZED"/);
    expect(generated).toMatch(/action\?: "CHANGE" \| "ACTIVATE" \| "DEACTIVATE" \| "REMOVE"/);
  });
});

describe('serializeBody', () => {
  it('sends an object holding a Blob as multipart/form-data: files with their names, the rest as text', async () => {
    // Prepare
    const file = new File([Buffer.from('serial,site\n')], 'sites.csv', { type: 'text/csv' });
    // Act
    const body = serializeBody({ file, description: 'sites', tags: undefined, note: null });
    // Assess
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect([...form.keys()]).toEqual(['file', 'description']);
    const part = form.get('file') as File;
    expect(part.name).toBe('sites.csv');
    expect(part.type).toBe('text/csv');
    expect(await part.text()).toBe('serial,site\n');
    expect(form.get('description')).toBe('sites');
  });

  it('sends anything else as JSON', () => {
    // Act / Assess
    expect(serializeBody({ name: 'Vehicles', metadata: { a: 1 } })).toBe(
      '{"name":"Vehicles","metadata":{"a":1}}',
    );
    expect(serializeBody({ action: 'CHANGE', name: 'Kept' })).toBe('{"action":"CHANGE","name":"Kept"}');
  });
});
