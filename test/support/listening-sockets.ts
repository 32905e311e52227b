/**
 * The TCP sockets a set of processes listen on, read from Linux's /proc (the tests of local
 * mode's bindings): `/proc/<pid>/fd` names each open socket's inode, `/proc/net/tcp` and
 * `/proc/net/tcp6` give each listening socket's local address, port and inode.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { portAcceptsConnections } from './local-server';

/** A listening TCP socket: its local address (hexadecimal, as /proc/net writes it) and port. */
export interface ListeningSocket {
  address: string;
  port: number;
  inode: string;
}

const LOOPBACK_ADDRESSES = new Set([
  '0100007F', // 127.0.0.1
  '0000000000000000FFFF00000100007F', // ::ffff:127.0.0.1
  '00000000000000000000000001000000', // ::1
]);

export const isLoopback = (socket: ListeningSocket): boolean => LOOPBACK_ADDRESSES.has(socket.address);

/** `pid (comm) state ppid pgrp …` of a process; the name may hold spaces, so read after its `)`. */
function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // ended meanwhile
  }
}

const processIds = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name));

/** The ids of the processes in a process group (`npm start` leads its own). */
export const processesOfGroup = (groupId: number): number[] =>
  processIds()
    .filter((pid) => Number(statFields(pid)?.[2]) === groupId)
    .map(Number);

/** A process and all its descendants. */
export function processTree(rootPid: number): number[] {
  const parents = new Map(processIds().map((pid) => [Number(pid), Number(statFields(pid)?.[1])]));
  const tree = new Set([rootPid]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [pid, parent] of parents)
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grown = true;
      }
  }
  return [...tree];
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

/** The TCP sockets (IPv4 and IPv6) these processes listen on. */
export function listeningSocketsOf(pids: readonly number[]): ListeningSocket[] {
  const inodes = new Set(pids.flatMap(socketInodesOf));
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((columns) => columns[3] === '0A' && inodes.has(columns[9] ?? ''))
      .map((columns) => {
        const [address = '', port = '0'] = (columns[1] ?? '').split(':');
        return { address, port: Number.parseInt(port, 16), inode: columns[9] ?? '' };
      }),
  );
}

/** This machine's IPv4 addresses other than loopback (none on a machine without a network). */
const nonLoopbackAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .flatMap((each) => (each && !each.internal && each.family === 'IPv4' ? [each.address] : []));

/** The `address:port` of each listening socket that accepts a connection through another address. */
export async function reachableFromOtherAddresses(sockets: readonly ListeningSocket[]): Promise<string[]> {
  const reached = await Promise.all(
    sockets.flatMap((socket) =>
      nonLoopbackAddresses().map(async (address) =>
        (await portAcceptsConnections(socket.port, address)) ? [`${address}:${socket.port}`] : [],
      ),
    ),
  );
  return reached.flat();
}
