/**
 * The integration tier's embedded stack listens on loopback only, as `npm start` does
 * (`test/e2e/local-isolation.test.ts`): DynamoDB Local, s3rver, the local AWS endpoint and the
 * function invocation server, all started by jest's main process (global setup) and its children.
 */
import { FUNCTION_INVOCATIONS_ENVIRONMENT, functionsS3Endpoint } from '../support/bundled-function';
import {
  isLoopback,
  listeningSocketsOf,
  processTree,
  reachableFromOtherAddresses,
} from '../support/listening-sockets';

// /proc is Linux's: elsewhere the bindings are not read this way.
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('the integration tier’s local services', () => {
  it('every socket of jest’s main process and its children is bound to 127.0.0.1', async () => {
    // Prepare
    const portOf = (url: string | undefined) => Number(new URL(url ?? 'http://x:1').port);
    const expectedPorts = [
      portOf(process.env.LOCAL_DYNAMODB_ENDPOINT),
      portOf(process.env.AWS_ENDPOINT_URL_S3),
      portOf(functionsS3Endpoint()),
      portOf(process.env[FUNCTION_INVOCATIONS_ENVIRONMENT]),
    ];
    // Act
    const listening = listeningSocketsOf(processTree(process.ppid));
    const reachedElsewhere = await reachableFromOtherAddresses(listening);
    // Assess
    expect(listening.map((socket) => socket.port)).toEqual(expect.arrayContaining(expectedPorts));
    expect(listening.filter((socket) => !isLoopback(socket))).toEqual([]);
    expect(reachedElsewhere).toEqual([]);
  });
});
