import { Inflate } from "fflate";
import { BizError } from "./errors.ts";

/**
 * Safe reading of uploaded zip archives (KMZ, xlsx). A zip's sizes are claims of the
 * uploader: a few hundred KB of deflated zeros unpack to gigabytes. So entries are
 * inflated in small steps with a running count, and the first byte past a limit stops the
 * work — memory stays near the limit whatever the archive claims.
 */
export interface ArchiveLimits {
  /** Files in the archive (every central-directory entry counts, read or not). */
  maxEntries: number;
  /** Sum of the inflated bytes of the entries read. */
  maxTotalBytes: number;
  /** Inflated ÷ compressed bytes of one entry, enforced once the entry passes RATIO_FLOOR. */
  maxRatio: number;
}

/**
 * Workbooks: the device sheets hold at most 1000 rows of short text (a few MB of XML); the
 * caps leave room for styles and extra sheets, not for a bomb. Real sheets compress
 * 5-30:1, repetitive ones up to ~100:1; deflate's own ceiling is ~1032:1.
 */
export const XLSX_LIMITS: ArchiveLimits = {
  maxEntries: 500,
  maxTotalBytes: 40 * 1024 * 1024,
  maxRatio: 200,
};

/** KMZ: a doc.kml and its icons/overlays. */
export const KMZ_LIMITS: ArchiveLimits = {
  maxEntries: 200,
  maxTotalBytes: 20 * 1024 * 1024,
  maxRatio: 200,
};

/** Below this an entry's ratio is not judged: tiny entries of repeated text compress well. */
const RATIO_FLOOR = 1024 * 1024;
/** Compressed bytes per inflate step: one step can produce at most ~1032× this. */
const STEP = 2048;

/** The bytes are not a zip this reader accepts (corrupt, encrypted, unknown method). */
export class ArchiveInvalid extends Error {}

const SIG_EOCD = 0x06054b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressed: number;
  local: number;
}

/** The refusal for an archive past a limit, naming the limits in the caller's language. */
function tooLarge(limits: ArchiveLimits): BizError {
  return new BizError("archiveTooLarge", {
    size: `${Math.round(limits.maxTotalBytes / 1024 / 1024)} MB`,
    entries: limits.maxEntries,
  });
}

/**
 * Inflates the entries `wanted` picks and returns them by name, within `limits`.
 * Throws BizError "archiveTooLarge" past a limit and ArchiveInvalid for a broken zip.
 */
export function unzipSafe(
  bytes: Uint8Array,
  limits: ArchiveLimits,
  wanted: (name: string) => boolean = () => true,
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  walk(bytes, limits, wanted, (name, data) => out.set(name, data));
  return out;
}

/**
 * Inflates every entry without keeping any: the pre-check of an archive handed to a library
 * (exceljs) that would otherwise inflate it all at once, unbounded.
 */
export function checkArchive(bytes: Uint8Array, limits: ArchiveLimits): void {
  walk(bytes, limits, () => true, null);
}

function walk(
  bytes: Uint8Array,
  limits: ArchiveLimits,
  wanted: (name: string) => boolean,
  keep: ((name: string, data: Uint8Array) => void) | null,
): void {
  const entries = centralDirectory(bytes, limits);
  let total = 0;
  for (const e of entries) {
    if (!wanted(e.name)) continue;
    const data = entryData(bytes, e);
    const chunks: Uint8Array[] = [];
    let produced = 0;
    const take = (chunk: Uint8Array) => {
      produced += chunk.length;
      total += chunk.length;
      const ratioBroken = produced > RATIO_FLOOR && produced > data.length * limits.maxRatio;
      if (total > limits.maxTotalBytes || ratioBroken) throw tooLarge(limits);
      if (keep) chunks.push(chunk);
    };
    if (e.method === 0) take(data);
    else inflate(data, take);
    if (keep) keep(e.name, concat(chunks, produced));
  }
}

/** Reads the central directory; refuses too many entries before inflating anything. */
function centralDirectory(bytes: Uint8Array, limits: ArchiveLimits): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEocd(view);
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  // ZIP64 markers: only needed past 65535 entries or 4 GB, both far past any limit here.
  if (count === 0xffff || offset === 0xffffffff) throw tooLarge(limits);
  if (count > limits.maxEntries) throw tooLarge(limits);
  const entries: Entry[] = [];
  const decoder = new TextDecoder();
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > view.byteLength || view.getUint32(p, true) !== SIG_CENTRAL) {
      throw new ArchiveInvalid("central directory");
    }
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    entries.push({
      flags: view.getUint16(p + 8, true),
      method: view.getUint16(p + 10, true),
      compressed: view.getUint32(p + 20, true),
      local: view.getUint32(p + 42, true),
      name: decoder.decode(bytes.subarray(p + 46, p + 46 + nameLength)),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The end-of-central-directory record: within the last 64 KB + 22 bytes. */
function findEocd(view: DataView): number {
  const stop = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let p = view.byteLength - 22; p >= stop; p--) {
    if (view.getUint32(p, true) === SIG_EOCD) return p;
  }
  throw new ArchiveInvalid("not a zip");
}

/** The compressed bytes of an entry (after its local header). */
function entryData(bytes: Uint8Array, e: Entry): Uint8Array {
  if (e.flags & 1) throw new ArchiveInvalid("encrypted");
  if (e.method !== 0 && e.method !== 8) throw new ArchiveInvalid("compression method");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (e.local + 30 > bytes.length || view.getUint32(e.local, true) !== SIG_LOCAL) {
    throw new ArchiveInvalid("local header");
  }
  const start = e.local + 30 + view.getUint16(e.local + 26, true) +
    view.getUint16(e.local + 28, true);
  if (start + e.compressed > bytes.length) throw new ArchiveInvalid("truncated");
  return bytes.subarray(start, start + e.compressed);
}

/** Inflates in STEP-sized pushes so no single step can produce more than ~2 MB. */
function inflate(data: Uint8Array, take: (chunk: Uint8Array) => void): void {
  const stream = new Inflate((chunk) => {
    if (chunk.length) take(chunk);
  });
  try {
    for (let p = 0; p < data.length; p += STEP) {
      stream.push(data.subarray(p, p + STEP), p + STEP >= data.length);
    }
    if (data.length === 0) stream.push(new Uint8Array(0), true);
  } catch (e) {
    if (e instanceof BizError) throw e;
    throw new ArchiveInvalid(`inflate: ${(e as Error).message}`);
  }
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0].slice();
  const out = new Uint8Array(length);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}
