/**
 * Local mode keeps its data to itself (`npm start` as a user runs it): every socket it and its
 * children listen on is bound to 127.0.0.1, its data folder and the files in it are its owner's
 * only (a key file an earlier run left readable by others is tightened), and deletions racing
 * uploads in one s3rver folder do not bring it down. The tests run in order on one server.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type LocalServer,
  portAcceptsConnections,
  processIsAlive,
  readStackStateFile,
  startLocalServer,
} from '../support/local-server';

jest.setTimeout(180_000);

/** A listening TCP socket: its local address (as /proc/net writes it, hex) and port. */
interface ListeningSocket {
  address: string;
  port: number;
  inode: string;
}

const LOOPBACK_ADDRESSES = new Set([
  '0100007F', // 127.0.0.1
  '0000000000000000FFFF00000100007F', // ::ffff:127.0.0.1
  '00000000000000000000000001000000', // ::1
]);

/** The ids of the processes in a process group (`npm start` leads its own). */
function processesOfGroup(groupId: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // `pid (comm) state ppid pgrp …`: the name may hold spaces, so read after its `)`.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === groupId;
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

/** The inodes of the sockets a process holds open. */
function socketInodesOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.slice(1) ?? [];
      } catch {
        return []; // closed meanwhile
      }
    });
  } catch {
    return []; // ended meanwhile
  }
}

/** Every TCP socket in LISTEN state on this machine (IPv4 and IPv6). */
function listeningSockets(): ListeningSocket[] {
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((columns) => columns[3] === '0A')
      .map((columns) => {
        const [address = '', port = '0'] = (columns[1] ?? '').split(':');
        return { address, port: Number.parseInt(port, 16), inode: columns[9] ?? '' };
      }),
  );
}

/** Whether a TCP connection to this address and port is accepted (false when refused). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

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
    const groupId = server?.child.pid ?? 0;
    const inodes = new Set(processesOfGroup(groupId).flatMap((pid) => socketInodesOf(pid)));
    const expectedPorts = [
      server?.port,
      Number(new URL(state?.environment.LOCAL_DYNAMODB_ENDPOINT ?? 'http://x:1').port),
      Number(new URL(state?.environment.AWS_ENDPOINT_URL_S3 ?? 'http://x:1').port),
    ];
    const otherAddresses = Object.values(networkInterfaces())
      .flat()
      .filter((each) => each && !each.internal && each.family === 'IPv4')
      .map((each) => each?.address as string);
    // Act
    const listening = listeningSockets().filter((socket) => inodes.has(socket.inode));
    const acceptedElsewhere = (
      await Promise.all(
        listening.flatMap((socket) =>
          otherAddresses.map(async (address) =>
            (await accepts(address, socket.port)) ? `${address}:${socket.port}` : '',
          ),
        ),
      )
    ).filter(Boolean);
    // Assess
    expect(listening.map((socket) => socket.port)).toEqual(expect.arrayContaining(expectedPorts));
    // The gateway, DynamoDB Local, s3rver and the AWS endpoint at least.
    expect(listening.length).toBeGreaterThanOrEqual(4);
    expect(listening.filter((socket) => !LOOPBACK_ADDRESSES.has(socket.address))).toEqual([]);
    expect(acceptedElsewhere).toEqual([]);
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
      fetch(`${bucket}/${key}`, { method, body }).then(async (answer) => {
        await answer.arrayBuffer();
        return answer.status;
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
