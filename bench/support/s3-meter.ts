/**
 * Counts the S3 requests of the code under test (`observeAwsRequests`), and can hand each to a
 * {@link CallRecorder}, so that the raw calls of file operations can be replayed next to the
 * DynamoDB ones.
 */
import { observeAwsRequests } from '../../lambdas/shared/aws-requests';
import type { CallRecorder } from './call-recorder';

export interface S3Meter {
  reset(): void;
  /** Calls per operation (`PutObject`, `GetObject`, ...). */
  read(): Record<string, number>;
}

export function installS3Meter(recorder?: CallRecorder): S3Meter {
  let callsByCommand: Record<string, number> = {};
  observeAwsRequests((request) => {
    if (request.service !== 'S3') return () => undefined;
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
