/**
 * Completing an upload session in AWS, where the files bucket is versioned (lib/data-store.ts):
 * the file must be pinned to the S3 version the server verified, so that its deletion (and the
 * deletion of a refused upload) removes that version for good, as direct uploads do, and later
 * writes to the presigned key cannot replace it. Offline: the S3 operations
 * (`lambdas/shared/s3-objects.ts`), the object and session reads and the ledger write replaced
 * by stubs.
 */
import { Readable } from 'node:stream';
import type { ObjectChange } from '../../lambdas/domain/objects/object-change';
import type { ObjectRecord } from '../../lambdas/repositories/object-repository';
import type { TransactItem } from '../../lambdas/repositories/transactions';
import { companyPrincipal } from '../support/principals';

const COMPANY_ID = '3b0d6a52-8f5e-4c1a-9f0e-6a1d2c3b4e5f';
const OBJECT_ID = '9c8b7a65-4321-4fed-8cba-0987654321ab';
const UPLOAD_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const VERIFIED_VERSION = 'version-the-server-verified';
/** Where the presigned POST put the bytes; verified bytes are copied to the file's own key. */
const STORAGE_KEY = `uploads/${COMPANY_ID}/${UPLOAD_ID}`;
const FILE_KEY = `companies/${COMPANY_ID}/files/${UPLOAD_ID}`;
const COPIED_VERSION = 'version-of-the-copy';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const theObject = { id: OBJECT_ID, companyId: COMPANY_ID, fileCount: 0, eventCount: 1 } as ObjectRecord;
const written: TransactItem[] = [];

/** The versioned bucket: HeadObject's response is set by each test. */
type ObjectRef = { bucket: string; key: string; versionId?: string };
const s3 = {
  headObject: jest.fn(
    async (_object: ObjectRef): Promise<{ size: number; versionId?: string } | undefined> => undefined,
  ),
  getObjectStream: jest.fn(async (_object: ObjectRef) => Readable.from([PNG])),
  getObjectBytes: jest.fn(async (_object: ObjectRef) => PNG),
  copyObject: jest.fn(async (_from: ObjectRef, _toKey: string, _type: string) => ({
    versionId: COPIED_VERSION,
  })),
  deleteObjects: jest.fn(async (_bucket: string, _objects: ObjectRef[]) => undefined),
};
// Each stub is looked up when called: jest.mock runs before `s3` is initialized.
jest.mock('../../lambdas/shared/s3-objects', () =>
  Object.fromEntries(
    ['headObject', 'getObjectStream', 'getObjectBytes', 'copyObject', 'deleteObjects'].map((name) => [
      name,
      (...args: unknown[]) => (s3 as Record<string, (...args: unknown[]) => unknown>)[name]?.(...args),
    ]),
  ),
);

jest.mock('../../lambdas/repositories/object-repository', () => ({
  ...jest.requireActual('../../lambdas/repositories/object-repository'),
  findVisibleObject: jest.fn(async () => theObject),
  findObjectByExternalId: jest.fn(async () => undefined),
}));
jest.mock('../../lambdas/repositories/file-repository', () => ({
  ...jest.requireActual('../../lambdas/repositories/file-repository'),
  findUploadSession: jest.fn(async () => ({
    id: UPLOAD_ID,
    companyId: COMPANY_ID,
    objectId: OBJECT_ID,
    originalFileName: 'photo.png',
    mimeType: 'image/png',
    size: PNG.length,
    description: '',
    tags: [],
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 900_000).toISOString(),
    storageKey: STORAGE_KEY,
  })),
}));
jest.mock('../../lambdas/domain/objects/object-change', () => ({
  ...jest.requireActual('../../lambdas/domain/objects/object-change'),
  changeObject: jest.fn(async (_principal: unknown, _objectId: string, change: ObjectChange) => {
    const after = await change.apply(theObject);
    written.push(...(change.extraItems?.(after) ?? []));
    return after;
  }),
}));

// Imported after the mocks are declared (jest hoists jest.mock above imports anyway).
import { completeUploadSession } from '../../lambdas/domain/files/upload-sessions';

describe('upload session completion in a versioned bucket', () => {
  const principal = companyPrincipal(undefined, COMPANY_ID);

  beforeAll(() => {
    process.env.TABLE_NAME = 'asset-registry-unit';
    process.env.FILES_BUCKET_NAME = 'asset-registry-files-unit';
  });
  beforeEach(() => {
    for (const operation of Object.values(s3)) operation.mockClear();
    written.length = 0;
  });

  it('copies the very version it verified and records the copy, so that deleting the file removes those bytes for good', async () => {
    // Prepare
    s3.headObject.mockResolvedValue({ size: PNG.length, versionId: VERIFIED_VERSION });
    // Act
    const file = await completeUploadSession(principal, OBJECT_ID, UPLOAD_ID, '');
    // Assess
    expect(file.checksum).toMatch(/^sha256:/);
    const fileItem = written.find((item) => item.Put?.Item?.entity === 'file');
    // The verified version is copied to the file's own key; the record names the copy.
    expect(s3.copyObject.mock.calls).toEqual([
      [expect.objectContaining({ key: STORAGE_KEY, versionId: VERIFIED_VERSION }), FILE_KEY, 'image/png'],
    ]);
    expect(fileItem?.Put?.Item).toMatchObject({
      id: UPLOAD_ID,
      storageKey: FILE_KEY,
      storageVersionId: COPIED_VERSION,
    });
  });

  it('reads back for the check the very version it measured', async () => {
    // Prepare
    s3.headObject.mockResolvedValue({ size: PNG.length, versionId: VERIFIED_VERSION });
    // Act
    await completeUploadSession(principal, OBJECT_ID, UPLOAD_ID, '');
    // Assess
    const reads = [...s3.getObjectStream.mock.calls, ...s3.getObjectBytes.mock.calls].map(([read]) => read);
    expect(reads).toEqual([expect.objectContaining({ key: STORAGE_KEY, versionId: VERIFIED_VERSION })]);
  });

  it('deletes a refused upload by its version, not only behind a delete marker', async () => {
    // Prepare: one byte more than announced.
    s3.headObject.mockResolvedValue({ size: PNG.length + 1, versionId: VERIFIED_VERSION });
    // Act
    const refusal = completeUploadSession(principal, OBJECT_ID, UPLOAD_ID, '');
    // Assess
    await expect(refusal).rejects.toMatchObject({ statusCode: 400 });
    const deletes = s3.deleteObjects.mock.calls.flatMap(([, objects]) => objects);
    expect(deletes).toEqual([{ key: STORAGE_KEY, versionId: VERIFIED_VERSION }]);
  });
});
