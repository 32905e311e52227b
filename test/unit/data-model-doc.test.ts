/**
 * `docs/data-model.md` holds the tables generated from the key declarations and access patterns
 * (`scripts/data-model-doc.ts`), and every stored entity has its keys declared. Offline.
 */
import { readFileSync } from 'node:fs';
import { categoryEntity } from '../../lambdas/repositories/category-entity';
import { DATA_MODEL } from '../../lambdas/repositories/data-model';
import { exportJobEntity } from '../../lambdas/repositories/export-job-entity';
import { fileEntity, uploadSessionEntity } from '../../lambdas/repositories/file-entity';
import { importErrorEntity, importJobEntity } from '../../lambdas/repositories/import-job-entity';
import { ledgerEventEntity } from '../../lambdas/repositories/ledger-event-entity';
import { objectEntity } from '../../lambdas/repositories/object-entity';
import { subcategoryEntity, subcategoryFileEntity } from '../../lambdas/repositories/subcategory-entity';
import { walletEntity } from '../../lambdas/repositories/wallet-entity';
import { deliveryEntity, webhookEntity } from '../../lambdas/repositories/webhook-entity';
import { DATA_MODEL_DOC, renderDataModel, withGenerated } from '../../scripts/data-model-doc';

describe('docs/data-model.md', () => {
  it('holds the tables generated from the declarations', () => {
    // Prepare
    const committed = readFileSync(DATA_MODEL_DOC, 'utf8');

    // Act
    const fresh = withGenerated(committed, renderDataModel());

    // Assess
    if (fresh !== committed) {
      throw new Error(
        'docs/data-model.md is stale: run npx tsx scripts/data-model-doc.ts --write and commit it',
      );
    }
  });
});

describe('the data model', () => {
  it('declares the keys of every stored entity, under the entity’s own name', () => {
    const declared = new Set(DATA_MODEL.map((model) => model.keys.entity));
    const stored = [
      categoryEntity,
      subcategoryEntity,
      subcategoryFileEntity,
      objectEntity,
      fileEntity,
      uploadSessionEntity,
      importJobEntity,
      importErrorEntity,
      exportJobEntity,
      walletEntity,
      webhookEntity,
      deliveryEntity,
      ledgerEventEntity,
    ];
    expect(stored.map((entity) => entity.type).filter((type) => !declared.has(type))).toEqual([]);
  });

  it('names each item once and gives each an access pattern', () => {
    const entities = DATA_MODEL.map((model) => model.keys.entity);
    expect(new Set(entities).size).toBe(entities.length);
    expect(DATA_MODEL.filter((model) => model.patterns.length === 0)).toEqual([]);
  });

  it('has every index an item writes read by one of its access patterns', () => {
    const unread = DATA_MODEL.flatMap((model) =>
      model.keys.indexNames
        .filter((index) => !model.patterns.some((pattern) => pattern.index === index))
        .map((index) => `${model.keys.entity} ${index}`),
    );
    expect(unread).toEqual([]);
  });
});
