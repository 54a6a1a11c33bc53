/**
 * White-label images uploaded by the administrator: checked by content (the first bytes and
 * the header's dimensions, never the file name or the browser's type), kept as blobs under
 * domains/images (files under DATA_DIR, or PostgreSQL in a cluster) with their facts in the
 * domains store, and served back with their real type.
 */
import type { BlobStore } from "../../lib/blobs/types.ts";
import { BizError } from "../../lib/errors.ts";
import {
  DOMAIN_IMAGE_EXT,
  DOMAIN_IMAGE_TYPE_NAMES,
  DOMAIN_IMAGE_TYPES,
  type DomainImageType,
  IMAGE_FIELDS,
  MAX_DOMAIN_IMAGE_BYTES,
  MAX_DOMAIN_IMAGE_LABEL,
  MAX_DOMAIN_IMAGE_SIDE,
  UPLOADED_NAME,
} from "./model.ts";
import type { DomainImage, DomainStore } from "./store.ts";

export interface ImageFacts {
  type: DomainImageType;
  width: number;
  height: number;
}

const be16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const le16 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const be32 = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + be16(b, i + 2);
const le24 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const le32 = (b: Uint8Array, i: number) => le24(b, i) + ((b[i + 3] << 24) >>> 0);
const ascii = (b: Uint8Array, i: number, text: string) =>
  [...text].every((ch, j) => b[i + j] === ch.charCodeAt(0));

/**
 * The type and dimensions of an image from its header, or null when the bytes are not a
 * PNG, JPEG, GIF, WebP or ICO image (an SVG, a script or text renamed .png is null).
 */
export function inspectImage(b: Uint8Array): ImageFacts | null {
  if (b.length < 24) return null;
  if (ascii(b, 0, "\x89PNG\r\n\x1a\n")) {
    return ascii(b, 12, "IHDR") ? { type: "png", width: be32(b, 16), height: be32(b, 20) } : null;
  }
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) {
    return { type: "gif", width: le16(b, 6), height: le16(b, 8) };
  }
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return webp(b);
  if (b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0) return ico(b);
  return null;
}

/** JPEG: walk the marker segments to the first start-of-frame, which holds the size. */
function jpeg(b: Uint8Array): ImageFacts | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) { // fill byte
      i++;
      continue;
    }
    // Stand-alone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end or scan before any frame
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) return { type: "jpeg", height: be16(b, i + 5), width: be16(b, i + 7) };
    const length = be16(b, i + 2);
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

/** WebP: lossy (VP8), lossless (VP8L) and extended (VP8X) headers. */
function webp(b: Uint8Array): ImageFacts | null {
  if (b.length < 30) return null;
  if (ascii(b, 12, "VP8 ") && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { type: "webp", width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  }
  if (ascii(b, 12, "VP8L") && b[20] === 0x2f) {
    const bits = le32(b, 21);
    return { type: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, "VP8X")) {
    return { type: "webp", width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  }
  return null;
}

/** ICO: a directory of images; every entry must lie inside the file. The largest one counts. */
function ico(b: Uint8Array): ImageFacts | null {
  const count = le16(b, 4);
  if (count < 1 || count > 64 || 6 + count * 16 > b.length) return null;
  let width = 0, height = 0;
  for (let n = 0; n < count; n++) {
    const e = 6 + n * 16;
    const size = le32(b, e + 8), offset = le32(b, e + 12);
    if (size === 0 || offset < 6 + count * 16 || offset + size > b.length) return null;
    width = Math.max(width, b[e] || 256);
    height = Math.max(height, b[e + 1] || 256);
  }
  return { type: "ico", width, height };
}

/** The refusal of a file that is too big, not an image, or of implausible dimensions. */
export function checkImage(bytes: Uint8Array): ImageFacts {
  if (bytes.length > MAX_DOMAIN_IMAGE_BYTES) {
    throw new BizError("fileTooLarge", { limit: MAX_DOMAIN_IMAGE_LABEL });
  }
  const facts = inspectImage(bytes);
  if (!facts) throw new BizError("fileTypeInvalid", { types: DOMAIN_IMAGE_TYPE_NAMES });
  const sane = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_DOMAIN_IMAGE_SIDE;
  if (!sane(facts.width) || !sane(facts.height)) {
    throw new BizError("imageDimensionsInvalid", { max: MAX_DOMAIN_IMAGE_SIDE });
  }
  return facts;
}

/** An upload is kept this long before an unsaved form's image counts as abandoned. */
export const PRUNE_GRACE_MS = 24 * 3600_000;

export class DomainImages {
  /** The bytes are blobs under `domains/images/` (DATA_DIR files, or PostgreSQL in a cluster). */
  constructor(private readonly blobs: BlobStore, private readonly store: DomainStore) {}

  private key(name: string) {
    return `domains/images/${name}`;
  }

  /** Checks and keeps one image under a new random name; answers its stored facts. */
  async add(bytes: Uint8Array, originalName: string, uploadedBy: string): Promise<DomainImage> {
    const facts = checkImage(bytes);
    const name = `${crypto.randomUUID().replaceAll("-", "")}.${DOMAIN_IMAGE_EXT[facts.type]}`;
    await this.blobs.put(this.key(name), bytes);
    const image: DomainImage = {
      name,
      ...facts,
      size: bytes.length,
      originalName: originalName.slice(0, 200),
      uploadedBy,
      uploadedAt: new Date().toISOString(),
    };
    await this.store.saveImage(image);
    return image;
  }

  /**
   * Removes uploaded images no host configuration names any more (a replaced logo, a deleted
   * host). Images younger than `graceMs` stay: they may sit in a form not yet saved.
   */
  async prune(graceMs = PRUNE_GRACE_MS, now = Date.now()): Promise<string[]> {
    const used = new Set<string>();
    for (const config of await this.store.list()) {
      for (const f of IMAGE_FIELDS) used.add(config[f].replace(/^\//, ""));
    }
    const removed: string[] = [];
    for (const image of await this.store.images()) {
      if (used.has(image.name) || now - Date.parse(image.uploadedAt) < graceMs) continue;
      await this.blobs.delete(this.key(image.name)).catch(() => {});
      await this.store.removeImage(image.name);
      removed.push(image.name);
    }
    return removed;
  }

  /**
   * An uploaded image as a response, or null when the name is not one the store knows: only
   * recorded names reach the file system, so no path can be walked out of the folder.
   */
  async serve(name: string): Promise<Response | null> {
    if (!UPLOADED_NAME.test(name)) return null;
    const image = await this.store.image(name);
    if (!image) return null;
    const bytes = await this.blobs.bytes(this.key(name)).catch(() => null);
    if (!bytes) return null;
    return new Response(bytes, {
      headers: {
        "content-type": DOMAIN_IMAGE_TYPES[image.type],
        "content-length": String(bytes.length),
        "x-content-type-options": "nosniff",
        // A name is never reused for other bytes, so the browser may keep it for long.
        "cache-control": "public, max-age=31536000, immutable",
        // Login pages of other hosts show these images; nothing in them runs.
        "content-security-policy": "default-src 'none'; sandbox",
        "cross-origin-resource-policy": "cross-origin",
      },
    });
  }
}
