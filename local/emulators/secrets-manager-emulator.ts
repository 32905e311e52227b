/**
 * Secrets Manager's GetSecretValue on the local AWS endpoint, for the one secret the functions
 * read (the page-cursor key): every secret's value is the local secret kept with the data.
 */
import type { EmulatedRequest, ServiceEmulator } from '../iam/local-aws-endpoint.js';

const response = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.1' },
  body: Buffer.from(JSON.stringify(body)),
});

/** The emulator; `secretValue` is the value of every secret. */
export function secretsManagerEmulator(secretValue: () => string): ServiceEmulator {
  return async (request: EmulatedRequest) => {
    const operation = String(request.headers['x-amz-target'] ?? '');
    if (operation !== 'secretsmanager.GetSecretValue') {
      return response(400, {
        __type: 'UnsupportedOperationException',
        message: `Local Secrets Manager does not emulate ${operation}`,
      });
    }
    const { SecretId } = JSON.parse(request.body.toString('utf8') || '{}') as { SecretId?: string };
    return response(200, {
      ARN: SecretId,
      Name: String(SecretId).split(':').pop(),
      SecretString: secretValue(),
      VersionId: 'local',
      VersionStages: ['AWSCURRENT'],
      CreatedDate: 0,
    });
  };
}
