/**
 * The environment of the witness's Lambda function, named once: `lib/witness/witness-stack.ts`
 * sets these variables and `lambda-handler.ts` reads them.
 */
export const WITNESS_ENVIRONMENT = {
  /** The DynamoDB table of cosigned checkpoints. */
  tableName: 'WITNESS_TABLE_NAME',
  /** The KMS key (ECC_NIST_EDWARDS25519, SIGN_VERIFY) the witness signs with. */
  keyId: 'WITNESS_KMS_KEY_ID',
  /** The witness's key name. */
  name: 'WITNESS_NAME',
  /** The verifier keys of the followed logs, one per line. */
  logs: 'WITNESS_LOGS',
} as const;
