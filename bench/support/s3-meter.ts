/**
 * Counts the S3 requests of the code under test (`observeS3Requests`), and can hand each to a
 * {@link CallRecorder}, so that the raw calls of file operations can be replayed next to the
 * DynamoDB ones.
 */
import { observeS3Requests } from '../../lambdas/shared/s3-requests';
import type { CallRecorder } from './call-recorder';

export interface S3Meter {
  reset(): void;
  /** Calls per operation (`PutObject`, `GetObject`, ...). */
  read(): Record<string, number>;
}

export function installS3Meter(recorder?: CallRecorder): S3Meter {
  let callsByCommand: Record<string, number> = {};
  observeS3Requests((request) => {
    callsByCommand[request.operation] = (callsByCommand[request.operation] ?? 0) + 1;
    return recorder?.begin('s3', request.operation, request) ?? (() => undefined);
  });
  return {
    reset: () => {
      callsByCommand = {};
    },
    read: () => ({ ...callsByCommand }),
  };
}
