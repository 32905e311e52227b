/**
 * A witness for someone else's log (C2SP tlog-witness), as its own small stack that an
 * auditor or insurer deploys into their own account: one function behind a public function
 * URL (the protocol authenticates checkpoints, not callers), a DynamoDB table of the latest
 * cosigned checkpoint per log (conditional writes), and the witness's Ed25519 key in KMS.
 * Context: `witnessLogs` (the followed logs' verifier keys, separated by spaces or commas),
 * `witnessName` (the witness's key name). docs/witness.md tells how to deploy it.
 */
import { join } from 'node:path';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { WITNESS_TABLE_PARTITION_KEY } from '../../witness/dynamodb-store.js';
import { WITNESS_ENVIRONMENT } from '../../witness/witness-environment.js';
import { bundledFunction } from '../bundled-function.js';
import { allowKeyUse, guardedKeyPolicy } from '../key-policy.js';
import { projectRoot } from '../project-paths.js';

/** The context values the stack reads. */
const WITNESS_LOGS_CONTEXT = 'witnessLogs';
const WITNESS_NAME_CONTEXT = 'witnessName';
/** The stack's name when context `stackName` gives none. */
export const DEFAULT_WITNESS_STACK_NAME = 'AssetRegistryWitness';

export interface WitnessStackProps extends StackProps {
  /** The followed logs' verifier keys; defaults to context `witnessLogs`. */
  logs?: string[];
  /** The witness's key name; defaults to context `witnessName`, else `<stack name>.witness/w1`. */
  witnessName?: string;
}

/** A vkey line: `<name>+<8 hex>+<base64>`; the function checks the rest at its first request. */
const VERIFIER_KEY = /^[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/;

function logsOf(scope: Construct, given: string[] | undefined): string[] {
  const context: unknown = scope.node.tryGetContext(WITNESS_LOGS_CONTEXT);
  const logs =
    given ??
    String(context ?? '')
      .split(/[\s,]+/)
      .filter(Boolean);
  if (logs.length === 0) {
    throw new Error(`The witness follows at least one log: -c ${WITNESS_LOGS_CONTEXT}='<log verifier key>'`);
  }
  const malformed = logs.filter((line) => !VERIFIER_KEY.test(line));
  if (malformed.length > 0)
    throw new Error(`Not a verifier key in ${WITNESS_LOGS_CONTEXT}: ${malformed.join(' ')}`);
  return logs;
}

export class WitnessStack extends Stack {
  readonly witnessFunction: NodejsFunction;
  readonly table: Table;
  readonly signingKey: Key;

  constructor(scope: Construct, id: string, props: WitnessStackProps = {}) {
    super(scope, id, props);
    const logs = logsOf(this, props.logs);
    const witnessName: string =
      props.witnessName ??
      this.node.tryGetContext(WITNESS_NAME_CONTEXT) ??
      `${this.stackName.toLowerCase()}.witness/w1`;
    if (/[\s+]/.test(witnessName) || witnessName === '') {
      throw new Error(`${WITNESS_NAME_CONTEXT} may not be empty nor hold white space or "+"`);
    }

    // Forgetting a cosigned size would let the witness cosign a fork: the table is kept on
    // delete, refuses deletion and keeps point-in-time recovery (Table's default is Retain).
    this.table = new Table(this, 'Checkpoints', {
      partitionKey: { name: WITNESS_TABLE_PARTITION_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
    });
    // The witness's identity: a new key is a new witness for every client that trusts it.
    this.signingKey = new Key(this, 'WitnessSigningKey', {
      description: 'Signs the witness cosignatures (Ed25519, C2SP tlog-cosignature)',
      keySpec: KeySpec.ECC_NIST_EDWARDS25519,
      keyUsage: KeyUsage.SIGN_VERIFY,
      policy: guardedKeyPolicy(this),
    });
    this.witnessFunction = bundledFunction(this, 'WitnessFunction', {
      entry: join(projectRoot, 'witness', 'lambda-handler.ts'),
      description: 'C2SP tlog-witness: checks checkpoints of the followed logs and cosigns them',
      environment: {
        [WITNESS_ENVIRONMENT.tableName]: this.table.tableName,
        [WITNESS_ENVIRONMENT.keyId]: this.signingKey.keyId,
        [WITNESS_ENVIRONMENT.name]: witnessName,
        [WITNESS_ENVIRONMENT.logs]: logs.join('\n'),
      },
    });
    // Reads and the conditional put only: the witness never deletes what it cosigned.
    this.table.grant(this.witnessFunction, 'dynamodb:GetItem', 'dynamodb:PutItem');
    allowKeyUse(this.signingKey, this.witnessFunction, ['kms:Sign', 'kms:GetPublicKey']);
    const url = this.witnessFunction.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });

    new CfnOutput(this, 'WitnessUrl', {
      description: 'The submission and monitoring prefix: POST <url>add-checkpoint',
      value: url.url,
    });
    new CfnOutput(this, 'WitnessName', { description: "The witness's key name", value: witnessName });
    new CfnOutput(this, 'WitnessKeyId', {
      description:
        'The KMS key the witness signs with (npm run witness -- --print-kms-key <id> --name <name> prints its vkey)',
      value: this.signingKey.keyId,
    });
  }
}
