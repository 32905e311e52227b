/**
 * Counts the S3 calls of the code under test (an SDK middleware on the shared client), and can
 * hand each call to a {@link CallRecorder}, so that the raw calls of file operations can be
 * replayed next to the DynamoDB ones.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { CallRecorder } from './call-recorder';

export interface S3Meter {
  reset(): void;
  /** Calls per command (`PutObject`, `GetObject`, ...). */
  read(): Record<string, number>;
}

export function installS3Meter(client: S3Client, recorder?: CallRecorder): S3Meter {
  let callsByCommand: Record<string, number> = {};
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
      callsByCommand[command] = (callsByCommand[command] ?? 0) + 1;
      const end = recorder?.begin('s3', command, args.input);
      try {
        const result = await next(args);
        end?.(false);
        return result;
      } catch (error) {
        end?.(true);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchS3Meter', override: true },
  );
  return {
    reset: () => {
      callsByCommand = {};
    },
    read: () => ({ ...callsByCommand }),
  };
}
