/**
 * What each update action does to an object's status (the spec leaves it open;
 * docs/api-decisions.md shows this as the object state table). No action is refused in any state:
 * the spec states no source-state restriction.
 *
 * | action          | status after            |
 * |-----------------|-------------------------|
 * | update          | unchanged               |
 * | transfer        | unchanged (owner moves) |
 * | repair          | `active`                |
 * | report_stolen   | `stolen`                |
 */
import type { ObjectStatus } from '#repositories/object-entity.js';
import type { StatusTransitions } from '../status-transitions.js';
import type { ObjectAction } from './object-schemas.js';

/** The object state table above, read by `statusAfter` (`../status-transitions.ts`). */
export const OBJECT_TRANSITIONS: StatusTransitions<ObjectAction, ObjectStatus> = {
  update: {},
  transfer: {},
  repair: { to: 'active' },
  report_stolen: { to: 'stolen' },
};
