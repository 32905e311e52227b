/**
 * The ledger is append-only for every function of the stack: an aspect adds to each Lambda
 * role a Deny on changing or deleting items whose partition key is a ledger chain
 * (`T#<tenant>#LEDGER#...`), and on putting one outside a transaction.
 *
 * New events are written only as the Put of a `TransactWriteItems`, with `attribute_not_exists`
 * and beside the chain head's update. IAM sees that Put as `dynamodb:PutItem` with
 * `dynamodb:EnclosingOperation` = `TransactWriteItems`, and has no condition key for the
 * item's condition: a bare PutItem (which could overwrite an event) is refused, and inside a
 * transaction the item condition is the control. An overwrite that got past it would still be
 * caught by verification (hashes, links and digests).
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

/** Puts of ledger items outside a transaction: the key is absent from a bare PutItem. */
export const LEDGER_BARE_PUT_CONDITION = { Null: { 'dynamodb:EnclosingOperation': 'true' } };

export class LedgerProtection implements IAspect {
  constructor(private readonly table: ITable) {}

  visit(node: IConstruct): void {
    if (!(node instanceof LambdaFunction)) return;
    const ledgerKeys = { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_PARTITION_PATTERN] } };
    node.addToRolePolicy(
      new PolicyStatement({
        sid: 'LedgerIsAppendOnly',
        effect: Effect.DENY,
        actions: LEDGER_REWRITE_ACTIONS,
        resources: [this.table.tableArn],
        conditions: ledgerKeys,
      }),
    );
    node.addToRolePolicy(
      new PolicyStatement({
        sid: 'LedgerIsWrittenInTransactions',
        effect: Effect.DENY,
        actions: ['dynamodb:PutItem'],
        resources: [this.table.tableArn],
        conditions: { ...ledgerKeys, ...LEDGER_BARE_PUT_CONDITION },
      }),
    );
  }
}
