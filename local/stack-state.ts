/**
 * The running local stack's addresses, written by `npm start` into the data folder so that the
 * admin CLI and the ledger tools (other processes) can reach the same DynamoDB Local and gateway.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StackEnvironment } from './embedded-stack.js';
import { writePrivateFile } from './private-files.js';

export interface StackState {
  pid: number;
  gatewayUrl: string;
  environment: StackEnvironment;
  /** The local identity provider and the company it is registered for (the demo people's). */
  identityProvider: {
    issuer: string;
    clientId: string;
    companyId: string;
    /** The file that holds the demo people's password. */
    passwordFile: string;
  };
}

export const dataDirectoryFromEnvironment = (): string => resolve(process.env.DATA_DIR || '.data');
const stateFile = (dataDirectory: string) => join(dataDirectory, 'local-stack.json');

/** Mode 600: the environment it holds names the cursor key. */
export function writeStackState(dataDirectory: string, state: StackState): void {
  writePrivateFile(stateFile(dataDirectory), `${JSON.stringify(state, null, 2)}\n`);
}

export function removeStackState(dataDirectory: string): void {
  rmSync(stateFile(dataDirectory), { force: true });
}

/** The state of a running `npm start`, or undefined when none runs on this data folder. */
export function readStackState(dataDirectory: string): StackState | undefined {
  const file = stateFile(dataDirectory);
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as StackState;
  try {
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined; // left behind by a stack that was killed
  }
}
