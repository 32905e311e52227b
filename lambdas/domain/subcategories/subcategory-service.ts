/**
 * The rules of subcategories (spec 4.8-4.10). Every change appends an event to the
 * subcategory's own ledger chain in the same transaction as the change. The state machine
 * (the spec's table; refusals are ours, documented in docs/api-decisions.md):
 *
 * | action     | from                 | to         | refused                                  |
 * |------------|----------------------|------------|------------------------------------------|
 * | CHANGE     | active, delisted     | unchanged  | -                                        |
 * | ACTIVATE   | delisted             | active     | from active: 409 INVALID_STATE_TRANSITION |
 * | DEACTIVATE | active, delisted     | delisted   | -                                        |
 * | REMOVE     | active, delisted     | removed    | -                                        |
 *
 * A removed subcategory responds 404 SUBCATEGORY_NOT_FOUND to everything.
 */
import { randomUUID } from 'node:crypto';
import { findCategory } from '#repositories/category-repository.js';
import { deleteFileBytes } from '#repositories/file-store.js';
import { type ChainRef, chainIdOf } from '#repositories/ledger-store.js';
import {
  findSubcategory,
  listSubcategoryFiles,
  StaleSubcategoryError,
  type SubcategoryFileRecord,
  type SubcategoryRecord,
  writeNewSubcategory,
  writeSubcategoryVersion,
} from '#repositories/subcategory-repository.js';
import { startBackgroundJob } from '#shared/background-jobs.js';
import { nextTimestamp, nowIso } from '#shared/clock.js';
import { ConflictError, categoryNotFound, subcategoryNotFound, ValidationError } from '#shared/errors.js';
import { retryLostRaces } from '#shared/lost-race-retry.js';
import type { UploadedFile } from '#shared/multipart-stream.js';
import { actorOf, type Principal, performedByOf } from '#shared/principal.js';
import type { Infer } from '#shared/schema.js';
import { canonicalJson } from '../ledger/canonical-json.js';
import { type FieldChanges, nextLink, sealEvent } from '../ledger/ledger-event.js';
import { type StatusTransitions, statusAfter } from '../status-transitions.js';
import { imageFromBase64, imageFromUpload, storeImage } from './subcategory-image.js';
import {
  type createSubcategoryBody,
  SUBCATEGORY_ACTIONS,
  type SubcategoryAction,
  type updateSubcategoryFields,
} from './subcategory-schemas.js';
import { type SubcategoryDetail, toSubcategoryDetail } from './subcategory-view.js';

type CreateSubcategoryInput = Infer<typeof createSubcategoryBody.shape>;
type UpdateSubcategoryInput = Infer<typeof updateSubcategoryFields.shape>;

const subcategoryChain = (record: Pick<SubcategoryRecord, 'companyId' | 'id'>): ChainRef => ({
  kind: 'subcategory',
  tenantId: record.companyId,
  entityId: record.id,
});

const changesBetween = (before: Partial<SubcategoryRecord>, after: SubcategoryRecord): FieldChanges => {
  const changes: FieldChanges = {};
  for (const field of ['name', 'description', 'imageId', 'status'] as const) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (canonicalJson(from) !== canonicalJson(to)) changes[field] = { from, to };
  }
  return changes;
};

/**
 * The changes the update responds with: spec 4.10 names the fields `changes` lists (name,
 * description, imageId). The status move is in the ledger event and in the detail view.
 */
const changesInResponse = ({ status: _status, ...listed }: FieldChanges): FieldChanges => listed;

/** Reads a subcategory that is not removed; 404 otherwise. */
async function findLiveSubcategory(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
): Promise<SubcategoryRecord> {
  const record = await findSubcategory(companyId, categoryId, subcategoryId);
  if (!record || record.status === 'removed') throw subcategoryNotFound(subcategoryId);
  return record;
}

/**
 * Creates an `active` subcategory in a category of the company, with the first event of its
 * own ledger chain and its image, and counts it in the category's statistics.
 */
export async function createSubcategory(
  principal: Principal,
  categoryId: string,
  input: CreateSubcategoryInput,
): Promise<{ id: string }> {
  const companyId = principal.tenantId;
  const image = input.image === undefined ? undefined : imageFromBase64(input.image);
  // The transaction's category statistics item refuses a missing category on its own; only a
  // request with an image reads the category first, so that no bytes are stored for nothing.
  if (image && !(await findCategory(companyId, categoryId))) throw categoryNotFound(categoryId);
  const id = randomUUID();
  const imageFile = image ? await storeImage(companyId, id, image) : undefined;
  const createdAt = nowIso();
  const draft: SubcategoryRecord = {
    id,
    companyId,
    categoryId,
    name: input.name,
    description: input.description ?? '',
    status: 'active',
    imageId: imageFile?.id ?? null,
    metadata: input.metadata ?? {},
    createdAt,
    updatedAt: createdAt,
    version: 1,
    objectCount: 0,
    activeObjectCount: 0,
    lastObjectCreated: null,
    eventCount: 1,
    lastTxId: '',
  };
  const event = sealEvent({
    chainId: chainIdOf(subcategoryChain(draft)),
    ...nextLink(undefined),
    action: 'CREATE',
    changes: changesBetween({}, draft),
    eventDescription: null,
    performedBy: performedByOf(principal, null),
    principal: actorOf(principal),
    timestamp: createdAt,
  });
  const record: SubcategoryRecord = { ...draft, lastTxId: event.hash };
  try {
    await writeNewSubcategory({
      record,
      chain: subcategoryChain(record),
      event,
      imageFile,
      onCategoryMissing: () => categoryNotFound(categoryId),
    });
  } catch (error) {
    if (imageFile) await deleteFileBytes([imageFile.storageKey]);
    throw error;
  }
  return { id: record.id };
}

/** The detail view (spec 4.9). */
export async function getSubcategoryDetail(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
): Promise<SubcategoryDetail> {
  const [record, category, files] = await Promise.all([
    findLiveSubcategory(companyId, categoryId, subcategoryId),
    findCategory(companyId, categoryId),
    listSubcategoryFiles(companyId, categoryId, subcategoryId),
  ]);
  if (!category) throw subcategoryNotFound(subcategoryId);
  return toSubcategoryDetail(record, category.name, files);
}

function parseAction(action: string | undefined): SubcategoryAction {
  if (action === undefined || action === '') return 'CHANGE';
  const normalized = action.toUpperCase();
  if (!(SUBCATEGORY_ACTIONS as readonly string[]).includes(normalized)) {
    throw new ValidationError(
      [
        {
          field: 'action',
          code: 'ENUM_INVALID',
          message: `action must be one of: ${SUBCATEGORY_ACTIONS.join(', ')}`,
        },
      ],
      `Unknown action "${action}"`,
      'INVALID_ACTION',
    );
  }
  return normalized as SubcategoryAction;
}

/** What each action does to a subcategory's status: only a deactivated one may be activated. */
const SUBCATEGORY_TRANSITIONS: StatusTransitions<SubcategoryAction, SubcategoryRecord['status']> = {
  CHANGE: {},
  ACTIVATE: {
    to: 'active',
    from: {
      statuses: ['delisted'],
      refused: (current) =>
        new ConflictError(
          'INVALID_STATE_TRANSITION',
          `ACTIVATE needs a deactivated subcategory; this one is ${current}`,
        ),
    },
  },
  DEACTIVATE: { to: 'delisted' },
  REMOVE: { to: 'removed' },
};

export interface SubcategoryUpdateResult {
  imageId: string | null;
  changes: FieldChanges;
}

/**
 * Applies an update (spec 4.10): the action's status move, plus any name, description or new
 * image given. Appends one event to the subcategory's chain. REMOVE hides the subcategory and
 * its objects at once and removes their data in the background.
 */
export async function updateSubcategory(
  principal: Principal,
  categoryId: string,
  subcategoryId: string,
  input: UpdateSubcategoryInput,
  file: UploadedFile | undefined,
): Promise<SubcategoryUpdateResult> {
  const companyId = principal.tenantId;
  const action = parseAction(input.action);
  const image = file ? imageFromUpload(file) : undefined;
  let imageFile: SubcategoryFileRecord | undefined;
  let committed: { result: SubcategoryUpdateResult; removed: boolean };
  try {
    committed = await retryLostRaces(
      'subcategory',
      (error) => error instanceof StaleSubcategoryError,
      async () => {
        const before = await findLiveSubcategory(companyId, categoryId, subcategoryId);
        const status = statusAfter(SUBCATEGORY_TRANSITIONS, action, before.status);
        imageFile ??= image ? await storeImage(companyId, subcategoryId, image) : undefined;
        const timestamp = nextTimestamp(before.updatedAt);
        const draft: SubcategoryRecord = {
          ...before,
          name: input.name ?? before.name,
          description: input.description ?? before.description,
          imageId: imageFile?.id ?? before.imageId,
          status,
          updatedAt: timestamp,
          version: before.version + 1,
          eventCount: before.eventCount + 1,
        };
        const changes = changesBetween(before, draft);
        const event = sealEvent({
          chainId: chainIdOf(subcategoryChain(before)),
          ...nextLink({ eventCount: before.eventCount, lastHash: before.lastTxId }),
          action,
          changes,
          eventDescription: null,
          performedBy: performedByOf(principal, null),
          principal: actorOf(principal),
          timestamp,
        });
        const after: SubcategoryRecord = { ...draft, lastTxId: event.hash };
        // Any failed condition but the name's (the chain's next event too) is a lost race.
        await writeSubcategoryVersion({ before, after, chain: subcategoryChain(after), event, imageFile });
        return {
          result: { imageId: after.imageId, changes: changesInResponse(changes) },
          removed: status === 'removed',
        };
      },
    );
  } catch (error) {
    // The new image's bytes are only kept when the change that records them went through.
    if (imageFile) await deleteFileBytes([imageFile.storageKey]);
    throw error;
  }
  // The change went through: whatever happens now, the image it records stays.
  if (committed.removed) {
    await startBackgroundJob('removeSubcategoryData', { companyId, categoryId, subcategoryId });
  }
  return committed.result;
}
