/**
 * The service's own stack, seen from any construct: the root stack, also from inside a nested
 * stack (`operation-functions-stack.ts`), whose own name is a token CloudFormation picks. Names
 * that people and code look up (the Powertools service name, role descriptions, the dashboard's
 * name) use the root stack's name.
 */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** The root stack a construct is in. */
export function serviceStackOf(scope: IConstruct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}
