/**
 * What each update action does to an object's status (the spec leaves it open; the README
 * shows this as the object state table). No action is refused in any state: the spec states
 * no source-state restriction.
 *
 * | action          | status after            |
 * |-----------------|-------------------------|
 * | update          | unchanged               |
 * | transfer        | unchanged (owner moves) |
 * | repair          | `active`                |
 * | report_stolen   | `stolen`                |
 */
import type { ObjectAction } from './object-schemas.js';

export const OBJECT_STATUSES = ['active', 'stolen'] as const;

export function statusAfter(action: ObjectAction, currentStatus: string): string {
  switch (action) {
    case 'repair':
      return 'active';
    case 'report_stolen':
      return 'stolen';
    default:
      return currentStatus;
  }
}
