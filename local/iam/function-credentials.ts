/**
 * The credentials each function's worker signs its AWS calls with in local mode: the access key
 * id says which function signed a request (the local endpoint reads it from the SigV4
 * credential scope), so it is unique per function and made of letters and digits only
 * (DynamoDB Local refuses other characters). The secret is the same for every function: the
 * endpoint checks it only where S3 checks a signature that a client carries to it (presigned
 * addresses and forms, `s3-presigned-check.ts`); DynamoDB Local and s3rver check none.
 */
import { createHash } from 'node:crypto';

/** Temporary credentials in AWS start with `ASIA`; these are local, so `LOCL`. */
const LOCAL_KEY_PREFIX = 'LOCL';

/**
 * The access key id of a function's local credentials: `LOCL` and 16 hexadecimal digits of the
 * SHA-256 of its name, upper-case (20 characters, the length of AWS's own key ids).
 *
 * @example
 * accessKeyIdOf('asset-registry-getObject'); // 'LOCL…' (20 letters and digits)
 */
export function accessKeyIdOf(functionName: string): string {
  const digest = createHash('sha256').update(functionName).digest('hex').slice(0, 16).toUpperCase();
  return `${LOCAL_KEY_PREFIX}${digest}`;
}

/**
 * The secret that goes with every local key id: the SDK needs one to sign; the endpoint checks
 * presigned S3 requests with it (the value's name predates that check).
 */
export const LOCAL_SECRET_ACCESS_KEY = 'local-secret-not-checked';

/** The variables a function's worker gets so that the SDK signs as that function. */
export function credentialEnvironmentOf(functionName: string): Record<string, string> {
  return { AWS_ACCESS_KEY_ID: accessKeyIdOf(functionName), AWS_SECRET_ACCESS_KEY: LOCAL_SECRET_ACCESS_KEY };
}
