/** The object entity as the API shows it (spec 2.2). */
import { type ObjectRecord, objectEntity } from '#repositories/object-entity.js';
import { defineView, group, type ViewOf } from '#shared/entity.js';

export const objectView = defineView(objectEntity, {
  name: 'Object',
  description: 'Spec 2.2',
  fields: { blockchain: group(['txId', 'lastTxId', 'eventCount']) },
});
export type ObjectView = ViewOf<typeof objectView>;

export const toObjectView = (record: ObjectRecord): ObjectView => objectView.toView(record);
