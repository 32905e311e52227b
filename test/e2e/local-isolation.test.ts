/**
 * Local mode keeps its data to itself (`npm start` as a user runs it): every socket it and its
 * children listen on is bound to 127.0.0.1, its data folder and the files in it are its owner's
 * only (a key file an earlier run left readable by others is tightened), and deletions racing
 * uploads in one s3rver folder do not bring it down. The tests run in order on one server.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  isLoopback,
  listeningSocketsOf,
  processesOfGroup,
  reachableFromOtherAddresses,
} from '../support/listening-sockets';
import {
  type LocalServer,
  portAcceptsConnections,
  processIsAlive,
  readStackStateFile,
  startLocalServer,
} from '../support/local-server';

jest.setTimeout(180_000);

const modeOf = (path: string) => statSync(path).mode & 0o777;

// /proc is Linux's: elsewhere the bindings and modes are not read this way.
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('local mode keeps its data to itself', () => {
  const dataDirectory = join(mkdtempSync(join(tmpdir(), 'asset-registry-isolation-')), 'data');
  let server: LocalServer | undefined;

  beforeAll(async () => {
    // An earlier run's data folder, left readable by everyone: keys and a stale state file.
    mkdirSync(join(dataDirectory, 'events'), { recursive: true, mode: 0o755 });
    chmodSync(dataDirectory, 0o755);
    writeFileSync(join(dataDirectory, 'cursor-key'), randomBytes(32).toString('hex'), { mode: 0o644 });
    writeFileSync(join(dataDirectory, 'local-stack.json'), JSON.stringify({ pid: 2 ** 22 + 1 }), {
      mode: 0o644,
    });
    writeFileSync(join(dataDirectory, 'events', 'webhook-secrets.key'), randomBytes(32).toString('base64'), {
      mode: 0o644,
    });
    chmodSync(join(dataDirectory, 'cursor-key'), 0o644);
    chmodSync(join(dataDirectory, 'events', 'webhook-secrets.key'), 0o644);
    chmodSync(join(dataDirectory, 'local-stack.json'), 0o644);
    server = await startLocalServer({ dataDirectory });
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(join(dataDirectory, '..'), { recursive: true, force: true });
  });

  it('every socket npm start and its children listen on is bound to 127.0.0.1', async () => {
    // Prepare
    const state = readStackStateFile(dataDirectory);
    const expectedPorts = [
      server?.port,
      Number(new URL(state?.environment.LOCAL_DYNAMODB_ENDPOINT ?? 'http://x:1').port),
      Number(new URL(state?.environment.AWS_ENDPOINT_URL_S3 ?? 'http://x:1').port),
    ];
    // Act
    const listening = listeningSocketsOf(processesOfGroup(server?.child.pid ?? 0));
    const reachedElsewhere = await reachableFromOtherAddresses(listening);
    // Assess
    expect(listening.map((socket) => socket.port)).toEqual(expect.arrayContaining(expectedPorts));
    // The gateway, DynamoDB Local, s3rver and the AWS endpoint at least.
    expect(listening.length).toBeGreaterThanOrEqual(4);
    expect(listening.filter((socket) => !isLoopback(socket))).toEqual([]);
    expect(reachedElsewhere).toEqual([]);
  });

  it('the data folder and its folders are 700, its files 600, the wider ones left before tightened', () => {
    // Prepare
    const walk = (directory: string): string[] =>
      readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
        const path = join(directory, entry.name);
        return entry.isDirectory() ? [path, ...walk(path)] : entry.isFile() ? [path] : [];
      });
    // Act
    const entries = walk(dataDirectory);
    const wider = entries.filter((path) => (modeOf(path) & 0o077) !== 0);
    // Assess
    expect(modeOf(dataDirectory)).toBe(0o700);
    expect(modeOf(join(dataDirectory, 'cursor-key'))).toBe(0o600);
    expect(modeOf(join(dataDirectory, 'local-stack.json'))).toBe(0o600);
    expect(modeOf(join(dataDirectory, 'events'))).toBe(0o700);
    expect(modeOf(join(dataDirectory, 'events', 'webhook-secrets.key'))).toBe(0o600);
    expect(entries.length).toBeGreaterThan(3);
    expect(wider).toEqual([]);
  });

  it('deletions racing uploads in one s3rver folder do not bring npm start down', async () => {
    // Prepare
    const state = readStackStateFile(dataDirectory);
    const bucket = `${state?.environment.AWS_ENDPOINT_URL_S3}/${state?.environment.FILES_BUCKET_NAME}`;
    const folders = Array.from({ length: 20 }, (_, index) => `race/${index}`);
    const send = (method: string, key: string, body?: string) =>
      fetch(`${bucket}/${key}`, { method, body }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    // Act: each folder's only object is deleted while another is uploaded into the folder.
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      await Promise.all(folders.map((folder) => send('PUT', `${folder}/first`, 'x')));
      const pairs = await Promise.all(
        folders.map((folder) =>
          Promise.all([
            send('DELETE', `${folder}/first`),
            send('PUT', `${folder}/second-${round}`, 'y'.repeat(1000)),
          ]),
        ),
      );
      statuses.push(...pairs.flat());
      await Promise.all(folders.map((folder) => send('DELETE', `${folder}/second-${round}`)));
    }
    // Assess
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    expect(processIsAlive(server?.child.pid ?? 0)).toBe(true);
    expect(await portAcceptsConnections(server?.port ?? 0)).toBe(true);
    expect((await fetch(`${server?.baseUrl}/v2/categories`)).status).toBe(401);
  });
});
