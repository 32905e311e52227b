/**
 * A single-item write whose refused condition is a response, not a failure: an item that is not
 * there, a version that moved on, a wallet that is no longer active.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/**
 * Runs `write` (one conditional Put, Update or Delete); false when DynamoDB refused its
 * condition, true when it wrote. Any other error passes through.
 *
 * @example
 * const revoked = await conditionHeld(() => dynamoDb.send(new UpdateCommand({ ..., ConditionExpression: 'attribute_exists(pk)' })));
 */
export async function conditionHeld(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
