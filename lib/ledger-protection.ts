/**
 * The ledger is append-only for every function of the stack: an aspect adds to each Lambda
 * role a Deny on changing or deleting items whose partition key is a ledger chain
 * (`T#<tenant>#LEDGER#...`). New events are written with PutItem and `attribute_not_exists`,
 * which IAM cannot tell from an overwrite; an overwrite would be caught by verification
 * (hashes, links and digests).
 */
import type { IAspect } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { ledgerPartitionPrefix } from '../lambdas/repositories/ledger-repository.js';

/** Partition keys of ledger event items (`T#<tenant>#LEDGER#<kind>#<id>`). */
export const LEDGER_PARTITION_PATTERN = `${ledgerPartitionPrefix('*')}*`;

export const LEDGER_REWRITE_ACTIONS = [
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

export class LedgerProtection implements IAspect {
  constructor(private readonly table: ITable) {}

  visit(node: IConstruct): void {
    if (!(node instanceof LambdaFunction)) return;
    node.addToRolePolicy(
      new PolicyStatement({
        sid: 'LedgerIsAppendOnly',
        effect: Effect.DENY,
        actions: LEDGER_REWRITE_ACTIONS,
        resources: [this.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_PARTITION_PATTERN] } },
      }),
    );
  }
}
