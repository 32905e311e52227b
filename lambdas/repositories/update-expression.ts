/**
 * An UpdateItem that sets the given attributes and leaves every other attribute alone. Entity
 * writes use it instead of a whole-item Put wherever other writes ADD to counters on the same
 * item (a Put built from an earlier read would undo those additions).
 */
import type { TransactItem } from './transactions.js';

export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export function setAttributesItem(
  tableName: string,
  key: { pk: string; sk: string },
  attributes: Record<string, unknown>,
  condition: Condition,
): TransactItem {
  const entries = Object.entries(attributes).filter(
    ([name, value]) => value !== undefined && name !== 'pk' && name !== 'sk',
  );
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: `SET ${entries.map((_, index) => `#set${index} = :set${index}`).join(', ')}`,
      ConditionExpression: condition.expression,
      ExpressionAttributeNames: {
        ...Object.fromEntries(entries.map(([name], index) => [`#set${index}`, name])),
        ...condition.names,
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(entries.map(([, value], index) => [`:set${index}`, value])),
        ...condition.values,
      },
    },
  };
}

/** Leaves out the named attributes (counters that other writes move with ADD). */
export function withoutAttributes(
  item: Record<string, unknown>,
  names: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !names.includes(name)));
}
