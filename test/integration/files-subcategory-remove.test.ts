/**
 * REMOVE of a subcategory (spec 4.10) also removes its objects' files: at once they are no
 * longer served, and after the background job their bytes and records are gone.
 */
import { verifyLedger } from '../../lambdas/domain/ledger/ledger-audit';
import { findFile } from '../../lambdas/repositories/file-repository';
import { settleBackgroundJobs } from '../support/background-jobs';
import {
  download,
  fileKeyOf,
  readStoredObject,
  storedFileKeys,
  uploadSampleOk,
} from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenObject, givenSubcategory, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';
import { putSubcategoryJson } from '../support/subcategory-requests';

describe('REMOVE of a subcategory and its objects’ files', () => {
  it('hides the files at once, then deletes their bytes and records; files of other subcategories stay', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const keptSubcategory = await givenSubcategory(principal, place.categoryId);
    const removedObject = await givenObject(principal, place);
    const keptObject = await givenObject(principal, {
      categoryId: place.categoryId,
      subcategoryId: keptSubcategory.id,
    });
    const removedFiles = [
      await uploadSampleOk(principal, removedObject.id, sample('photo.png')),
      await uploadSampleOk(principal, removedObject.id, sample('manual.pdf')),
    ];
    const keptFile = await uploadSampleOk(principal, keptObject.id, sample('notes.txt'));
    // Act
    const removal = await putSubcategoryJson(
      principal,
      { companyId: principal.tenantId, categoryId: place.categoryId, subcategoryId: place.subcategoryId },
      { action: 'REMOVE' },
    );
    const downloadedAtOnce = await download(principal, removedFiles[0]?.id ?? '');
    await settleBackgroundJobs();
    const keys = await storedFileKeys(principal.tenantId);
    const records = await Promise.all(removedFiles.map((file) => findFile(principal.tenantId, file.id)));
    const keptDownload = await download(principal, keptFile.id);
    // Assess
    expect(removal.statusCode).toBe(200);
    expect(downloadedAtOnce.statusCode).toBe(404);
    expect(downloadedAtOnce.json.code).toBe('FILE_NOT_FOUND');
    expect(keys).toEqual([fileKeyOf(principal.tenantId, keptFile.id)]);
    for (const file of removedFiles) {
      expect(await readStoredObject(fileKeyOf(principal.tenantId, file.id))).toBeUndefined();
    }
    expect(records).toEqual([undefined, undefined]);
    expect(keptDownload.statusCode).toBe(200);
    expect(keptDownload.content.equals(sample('notes.txt').content)).toBe(true);
  });

  it('the removed object’s ledger, with its file events, is kept and still verifies', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const object = await givenObject(principal, place);
    await uploadSampleOk(principal, object.id, sample('photo.png'));
    // Act
    await putSubcategoryJson(
      principal,
      { companyId: principal.tenantId, categoryId: place.categoryId, subcategoryId: place.subcategoryId },
      { action: 'REMOVE' },
    );
    await settleBackgroundJobs();
    const audit = await verifyLedger({ objectId: object.id });
    // Assess
    expect(audit).toMatchObject({ valid: true, chainsChecked: 1, eventsChecked: 2 });
  });
});
