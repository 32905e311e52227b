/**
 * C2SP tlog-tiles (c2sp.org/tlog-tiles): where the log's hashes and entries are stored.
 * - A hash tile `tile/<L>/<N>` holds the 256 hashes of level 8·L from index 256·N, 32 bytes
 *   each; the last, partial tile of a level is `tile/<L>/<N>.p/<W>` with its W hashes.
 * - An entry bundle `tile/entries/<N>[.p/<W>]` holds the entries of level-0 tile N, each as a
 *   2-byte big-endian length and the entry (here always 32 bytes: an event hash).
 * - `<N>` is written in 3-digit groups, every group but the last prefixed with `x`
 *   (1234067 → `x001/x234/067`).
 */
import { leafHashOf, rootOfLevel, type StoredHashes, TILE_WIDTH } from './log-tree.js';

/** The path element of a tile index. */
function tileIndexPath(index: number): string {
  const digits = String(index);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  const padded = groups.map((group) => group.padStart(3, '0'));
  return padded.map((group, i) => (i < padded.length - 1 ? `x${group}` : group)).join('/');
}

/** A tile's (or, with `level` 'entries', an entry bundle's) path; `width` below 256 makes it partial. */
export function tilePath(level: number | 'entries', index: number, width: number): string {
  const partial = width < TILE_WIDTH ? `.p/${width}` : '';
  return `tile/${level}/${tileIndexPath(index)}${partial}`;
}

export interface TileRef {
  level: number | 'entries';
  index: number;
  width: number;
}

/** Reads a tile path back, or undefined when it is not one (the API refuses it with 404). */
export function parseTilePath(path: string): TileRef | undefined {
  const match =
    /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*)([0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!match) return undefined;
  const [, level, prefixes = '', last = '', width] = match;
  const index = Number(`${prefixes.replaceAll('x', '').replaceAll('/', '')}${last}`);
  const ref: TileRef = {
    level: level === 'entries' ? 'entries' : Number(level),
    index,
    width: width ? Number(width) : TILE_WIDTH,
  };
  // One spelling per tile: no leading zero groups, widths 1 to 255 only.
  if (ref.width > TILE_WIDTH - 1 && width) return undefined;
  if (tilePath(ref.level, ref.index, ref.width) !== path) return undefined;
  return ref;
}

/** An entry bundle's bytes. */
function encodeEntryBundle(entries: Buffer[]): Buffer {
  return Buffer.concat(
    entries.flatMap((entry) => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(entry.length);
      return [length, entry];
    }),
  );
}

/** The entries of a bundle. */
export function decodeEntryBundle(bundle: Buffer): Buffer[] {
  const entries: Buffer[] = [];
  for (let at = 0; at < bundle.length; ) {
    const length = bundle.readUInt16BE(at);
    entries.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}

/** The hashes of a tile's bytes. */
export const tileHashes = (tile: Buffer): Buffer[] =>
  Array.from({ length: tile.length / 32 }, (_, i) => tile.subarray(i * 32, i * 32 + 32));

/** How many hashes level `tileLevel` has in a tree of `treeSize` leaves. */
const levelWidth = (treeSize: number, tileLevel: number): number =>
  Math.floor(treeSize / TILE_WIDTH ** tileLevel);

/** A tile or bundle to store, with its bytes. */
export interface TileWrite extends TileRef {
  data: Buffer;
}

/**
 * The tiles and entry bundles that change when `entries` are appended to a tree of `oldSize`
 * leaves: the partial tile at the right edge of each level, and every tile completed. Needs
 * only the old right-edge tiles (`readPartial`), so its cost follows the new entries.
 */
export async function tilesForAppend(
  oldSize: number,
  entries: Buffer[],
  readPartial: (level: number | 'entries', index: number, width: number) => Promise<Buffer>,
): Promise<TileWrite[]> {
  const newSize = oldSize + entries.length;
  const writes: TileWrite[] = [];
  const firstTile = Math.floor(oldSize / TILE_WIDTH);
  const oldEntries =
    oldSize % TILE_WIDTH === 0
      ? []
      : decodeEntryBundle(await readPartial('entries', firstTile, oldSize % TILE_WIDTH));
  const allEntries = [...oldEntries, ...entries];
  for (let tile = firstTile; tile * TILE_WIDTH < newSize; tile++) {
    const chunk = allEntries.slice((tile - firstTile) * TILE_WIDTH, (tile - firstTile + 1) * TILE_WIDTH);
    writes.push({ level: 'entries', index: tile, width: chunk.length, data: encodeEntryBundle(chunk) });
  }
  // Level by level: the new hashes of a level are the leaf hashes (level 0) or the roots of the
  // tiles completed one level below.
  let newHashes = entries.map(leafHashOf);
  for (let level = 0; newHashes.length > 0; level++) {
    const oldWidth = levelWidth(oldSize, level);
    const first = Math.floor(oldWidth / TILE_WIDTH);
    const kept =
      oldWidth % TILE_WIDTH === 0 ? [] : tileHashes(await readPartial(level, first, oldWidth % TILE_WIDTH));
    const hashes = [...kept, ...newHashes];
    const completedRoots: Buffer[] = [];
    for (let offset = 0; offset < hashes.length; offset += TILE_WIDTH) {
      const chunk = hashes.slice(offset, offset + TILE_WIDTH);
      const index = first + offset / TILE_WIDTH;
      writes.push({ level, index, width: chunk.length, data: Buffer.concat(chunk) });
      if (chunk.length === TILE_WIDTH) completedRoots.push(rootOfLevel(chunk));
    }
    newHashes = completedRoots;
  }
  return writes;
}

/**
 * The hashes of the tree of `treeSize` leaves, read tile by tile from `readTile` (each tile once);
 * `overlay` holds tiles written in this run, read before the store.
 */
export function hashesFromTiles(
  readTile: (ref: TileRef) => Promise<Buffer | undefined>,
  treeSize: number,
  overlay = new Map<string, Buffer>(),
): StoredHashes {
  const tiles = new Map<string, Promise<Buffer[]>>();
  return {
    hashAt(tileLevel, index) {
      const tileIndex = Math.floor(index / TILE_WIDTH);
      const width = levelWidth(treeSize, tileLevel);
      const tileWidth = (tileIndex + 1) * TILE_WIDTH <= width ? TILE_WIDTH : width % TILE_WIDTH;
      const path = tilePath(tileLevel, tileIndex, tileWidth);
      let tile = tiles.get(path);
      if (!tile) {
        tile = (async () => {
          const data =
            overlay.get(path) ?? (await readTile({ level: tileLevel, index: tileIndex, width: tileWidth }));
          if (!data) throw new Error(`The log tile ${path} is missing`);
          return tileHashes(data);
        })();
        tiles.set(path, tile);
      }
      return tile.then((hashes) => {
        const hash = hashes[index % TILE_WIDTH];
        if (!hash) throw new Error(`The log tile ${path} is too short`);
        return hash;
      });
    },
  };
}
