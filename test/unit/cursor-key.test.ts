/** The page-cursor key in AWS: read from Secrets Manager once per container; a failed read is tried again. */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import {
  CURSOR_KEY_SECRET_ENV,
  cursorKey,
  forgetCursorKey,
  LOCAL_CURSOR_KEY_ENV,
} from '../../lambdas/shared/cursor-key';

describe('cursorKey in AWS', () => {
  const secretsManager = mockClient(SecretsManagerClient);
  const localKey = process.env[LOCAL_CURSOR_KEY_ENV];

  beforeEach(() => {
    secretsManager.reset();
    forgetCursorKey();
    delete process.env[LOCAL_CURSOR_KEY_ENV];
    process.env[CURSOR_KEY_SECRET_ENV] = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:cursor-key';
  });

  afterAll(() => {
    forgetCursorKey();
    delete process.env[CURSOR_KEY_SECRET_ENV];
    if (localKey !== undefined) process.env[LOCAL_CURSOR_KEY_ENV] = localKey;
  });

  it('reads the secret once and keeps it for the container', async () => {
    // Prepare
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'k'.repeat(64) });
    // Act
    const [first, second] = [await cursorKey(), await cursorKey()];
    // Assess
    expect(first.toString()).toBe('k'.repeat(64));
    expect(second).toBe(first);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(secretsManager.commandCalls(GetSecretValueCommand)[0]?.args[0].input).toEqual({
      SecretId: process.env[CURSOR_KEY_SECRET_ENV],
    });
  });

  it('tries again on the next request after a failed read', async () => {
    // Prepare
    secretsManager
      .on(GetSecretValueCommand)
      .rejectsOnce(new Error('ThrottlingException'))
      .resolves({ SecretString: 'k'.repeat(64) });
    // Act
    const failed = cursorKey();
    // Assess
    await expect(failed).rejects.toThrow('ThrottlingException');
    await expect(cursorKey()).resolves.toEqual(Buffer.from('k'.repeat(64)));
  });
});
