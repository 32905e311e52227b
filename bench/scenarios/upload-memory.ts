/**
 * Uploads: `npm start` in a child process (its own port and data folder), then concurrent
 * large multipart uploads over HTTP, each to its own object, while the server process's
 * resident memory is sampled from `/proc/<pid>/status` (the pid `npm start` writes to
 * `local-stack.json`). The bodies are generated as streams, so the bench never holds them
 * either. In local mode s3rver runs inside the server process, so its memory is counted too.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  readStackStateFile,
  runAdmin,
  settledWithin,
  startLocalServer,
} from '../../test/support/local-server';
import { round } from '../support/statistics';

export interface UploadMemoryResult {
  uploads: number;
  fileMb: number;
  bodiesMb: number;
  statuses: string;
  wallSeconds: number;
  megabytesPerSecond: number;
  baselineRssMb: number;
  peakRssMb: number;
  /** Peak RSS above the RSS before the first round. */
  peakGrowthMb: number;
  /** Peak growth against what the bodies of this round add up to. */
  growthShareOfBodies: number;
  vmHwmMb: number;
  samples: number;
}

const MB = 1024 * 1024;

function memoryOf(pid: number): { rssKb: number; hwmKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

async function json(baseUrl: string, method: string, path: string, apiKey: string, body: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as Record<string, unknown> & { data?: { id: string }; id?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/** A multipart body of one generated PDF-looking file of `fileBytes`, as a stream. */
function uploadStream(fileBytes: number): { stream: Readable; length: number; contentType: string } {
  const boundary = `----benchupload${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nLarge bench upload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const filler = Buffer.alloc(64 * 1024, 0x41);
  const pdfHead = Buffer.from('%PDF-1.7\n');
  async function* chunks() {
    yield head;
    yield pdfHead;
    let left = fileBytes - pdfHead.length;
    while (left > 0) {
      const size = Math.min(left, filler.length);
      yield size === filler.length ? filler : filler.subarray(0, size);
      left -= size;
    }
    yield tail;
  }
  return {
    stream: Readable.from(chunks(), { objectMode: false }),
    length: head.length + fileBytes + tail.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function upload(baseUrl: string, path: string, apiKey: string, fileBytes: number): Promise<number> {
  const body = uploadStream(fileBytes);
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: { 'X-API-Key': apiKey, 'Content-Type': body.contentType, 'Content-Length': body.length },
        timeout: 180_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    body.stream.pipe(outgoing);
  });
}

export async function runUploadMemory(options: {
  uploads: number;
  /** One round per size, smallest first, on the same server: the peaks are cumulative. */
  fileSizes: number[];
}): Promise<UploadMemoryResult[]> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-bench-uploads-'));
  const server = await startLocalServer({ dataDirectory });
  try {
    const state = readStackStateFile(dataDirectory);
    if (!state) throw new Error('npm start wrote no local-stack.json');
    const settings = { port: server.port, dataDirectory };
    const admin = await runAdmin(['create-company', '--name', 'Bench uploads'], settings);
    if (admin.exitCode !== 0) throw new Error(`admin create-company: ${admin.stderr}`);
    const { companyId, apiKey } = JSON.parse(admin.stdout) as { companyId: string; apiKey: string };
    const category = await json(server.baseUrl, 'POST', '/v2/categories', apiKey, { name: 'Uploads' });
    const subcategory = await json(
      server.baseUrl,
      'POST',
      `/v2/categories/${category.id}/subcategories`,
      apiKey,
      {
        name: 'Large files',
      },
    );
    const objectsPath = `/v2/categories/${category.id}/subcategories/${subcategory.data?.id}/objects`;
    const filesPaths: string[] = [];
    for (let index = 0; index <= options.uploads; index++) {
      const object = await json(server.baseUrl, 'POST', objectsPath, apiKey, {
        externalId: `UPLOAD-${index}`,
        name: `Upload target ${index}`,
      });
      filesPaths.push(`/v2/companies/${companyId}/objects/${object.id}/files`);
    }
    // One small upload first: the handler module is loaded before the baseline is taken.
    const warmStatus = await upload(server.baseUrl, filesPaths[0] as string, apiKey, 64 * 1024);
    if (warmStatus !== 201) throw new Error(`warm-up upload responded ${warmStatus}`);

    const baseline = memoryOf(state.pid);
    const results: UploadMemoryResult[] = [];
    for (const fileBytes of options.fileSizes) {
      let peakRssKb = memoryOf(state.pid).rssKb;
      let samples = 0;
      const sampler = setInterval(() => {
        try {
          peakRssKb = Math.max(peakRssKb, memoryOf(state.pid).rssKb);
          samples++;
        } catch {
          // the process ended; the uploads will say why
        }
      }, 20);
      const started = Date.now();
      const statuses = await Promise.all(
        filesPaths.slice(1).map((path) => upload(server.baseUrl, path, apiKey, fileBytes)),
      );
      const wallSeconds = (Date.now() - started) / 1000;
      clearInterval(sampler);
      const after = memoryOf(state.pid);
      peakRssKb = Math.max(peakRssKb, after.rssKb);
      const statusCounts: Record<number, number> = {};
      for (const status of statuses) statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      const bodiesMb = (options.uploads * fileBytes) / MB;
      const growthMb = (peakRssKb - baseline.rssKb) / 1024;
      results.push({
        uploads: options.uploads,
        fileMb: round(fileBytes / MB, 1),
        bodiesMb: round(bodiesMb, 0),
        statuses: Object.entries(statusCounts)
          .map(([status, count]) => `${status}×${count}`)
          .join(', '),
        wallSeconds: round(wallSeconds, 1),
        megabytesPerSecond: round(bodiesMb / wallSeconds, 1),
        baselineRssMb: round(baseline.rssKb / 1024, 0),
        peakRssMb: round(peakRssKb / 1024, 0),
        peakGrowthMb: round(growthMb, 0),
        growthShareOfBodies: round(growthMb / bodiesMb, 2),
        vmHwmMb: round(after.hwmKb / 1024, 0),
        samples,
      });
    }
    return results;
  } finally {
    server.signalGroup('SIGTERM');
    if ((await settledWithin(server.exited, 15_000)) === 'timeout') await server.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
