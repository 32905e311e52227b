/** Folders of the project, found from this file's place so synth works from any working directory. */
import { join } from 'node:path';

export const projectRoot = join(__dirname, '..');
export const lambdasDirectory = join(projectRoot, 'lambdas');
/** The lock file NodejsFunction hashes and installs from; named so it is not searched for from the cwd. */
export const lockFilePath = join(projectRoot, 'package-lock.json');

/** The entry file of an operation's handler module (`handler` column of the operation table). */
export const handlerEntry = (handlerModule: string): string =>
  join(lambdasDirectory, 'handlers', `${handlerModule}.ts`);

/** The entry file of the API Gateway authorizer. */
export const authorizerEntry = join(lambdasDirectory, 'authorizer', 'api-key-authorizer.ts');

/** The entry file of a function that is not behind the API (scheduled or background jobs). */
export const jobEntry = (jobModule: string): string => join(lambdasDirectory, 'jobs', `${jobModule}.ts`);
