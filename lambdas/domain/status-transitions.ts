/**
 * What an update action does to a resource's status, as one table per resource (objects,
 * subcategories) read by one function, so that a resource's state table is data beside its
 * schema rather than a switch of its own.
 */

/** What one action does to the status. */
interface StatusTransition<Status extends string> {
  /** The status after the action; without it the status stays as it is. */
  to?: Status;
  /** The statuses the action may start from, and the error for any other; without it, any. */
  from?: { statuses: readonly Status[]; refused: (current: Status) => Error };
}

/** A resource's state table: every action with what it does to the status. */
export type StatusTransitions<Action extends string, Status extends string> = Readonly<
  Record<Action, StatusTransition<Status>>
>;

/**
 * The status after `action`, from `current`; throws the action's error when it may not start there.
 *
 * @example
 * statusAfter({ repair: { to: 'active' }, update: {} }, 'repair', 'stolen'); // 'active'
 */
export function statusAfter<Action extends string, Status extends string>(
  transitions: StatusTransitions<Action, Status>,
  action: Action,
  current: Status,
): Status {
  const transition: StatusTransition<Status> = transitions[action];
  if (transition.from && !transition.from.statuses.includes(current)) throw transition.from.refused(current);
  return transition.to ?? current;
}
