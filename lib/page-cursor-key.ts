/**
 * The key that authenticates page cursors (`lambdas/shared/page-cursor.ts`): a Secrets Manager
 * secret of 64 random characters the stack generates, readable only by the list functions,
 * which read it once per container on their first cursor (not at init, where it would add a
 * network call and an SDK client to every cold start).
 */
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Operation } from '../lambdas/operation-row.js';
import { CURSOR_KEY_SECRET_ENV } from '../lambdas/shared/cursor-key.js';

/** A list operation: its query takes a `cursor`. */
export const takesCursor = (operation: Operation): boolean =>
  operation.query !== undefined && 'cursor' in operation.query.shape;

export class PageCursorKey extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Key of the HMAC that authenticates Asset Registry page cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      // Cursors live for one walk through a list: nothing is lost with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The key authenticates page positions, not callers: it grants no access. Rotating it ends every ' +
        'cursor in flight (400 VALIDATION_ERROR, the client starts its walk again); rotate by hand if needed.',
    });
  }

  /** Lets a function read the key and tells it where the key is. */
  grantTo(lambdaFunction: LambdaFunction): void {
    // Only the read (grantRead would add DescribeSecret, which the functions never call).
    lambdaFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.secret.secretArn] }),
    );
    lambdaFunction.addEnvironment(CURSOR_KEY_SECRET_ENV, this.secret.secretArn);
  }
}
