/**
 * Image files for the white-label tests, written byte by byte: a real PNG (decodable by a
 * browser), and the smallest headers of JPEG, GIF, WebP and ICO files.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

function chunk(type: string, data: Uint8Array): number[] {
  const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  return [...u32(data.length), ...body, ...u32(crc32(body))];
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's signature and IHDR chunk: 8-bit RGB of the given size. */
function pngStart(width: number, height: number): number[] {
  const ihdr = new Uint8Array([...u32(width), ...u32(height), 8, 2, 0, 0, 0]);
  return [...PNG_SIGNATURE, ...chunk("IHDR", ihdr)];
}

/** A solid-colour RGB PNG of the given size that any decoder reads. */
export async function png(width: number, height: number, rgb = [59, 122, 255]) {
  const row = [0, ...Array.from({ length: width }, () => rgb).flat()];
  const raw = new Uint8Array(Array.from({ length: height }, () => row).flat());
  return new Uint8Array([
    ...pngStart(width, height),
    ...chunk("IDAT", await deflate(raw)),
    ...chunk("IEND", new Uint8Array()),
  ]);
}

/** A PNG signature and header claiming a size, padded to `total` bytes. */
export function pngHeader(width: number, height: number, total = 64): Uint8Array {
  const head = pngStart(width, height);
  const out = new Uint8Array(Math.max(total, head.length));
  out.set(head);
  return out;
}

/** JPEG: SOI, a JFIF APP0 segment, then a baseline frame header (SOF0). */
export function jpegHeader(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xd9,
  ]);
}

export function gifHeader(width: number, height: number): Uint8Array {
  const out = new Uint8Array(32);
  out.set(new TextEncoder().encode("GIF89a"));
  out.set([width & 255, width >> 8, height & 255, height >> 8], 6);
  return out;
}

/** WebP with an extended (VP8X) header. */
export function webpHeader(width: number, height: number): Uint8Array {
  const le24 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
  const e = new TextEncoder();
  return new Uint8Array([
    ...e.encode("RIFF"),
    30,
    0,
    0,
    0,
    ...e.encode("WEBP"),
    ...e.encode("VP8X"),
    10,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    ...le24(width - 1),
    ...le24(height - 1),
  ]);
}

/** An ICO directory with one 32×32 entry and its (dummy) data inside the file. */
export function icoFile(): Uint8Array {
  const data = new Uint8Array(40);
  return new Uint8Array([
    0,
    0,
    1,
    0,
    1,
    0,
    32,
    32,
    0,
    0,
    1,
    0,
    32,
    0,
    data.length,
    0,
    0,
    0,
    22,
    0,
    0,
    0,
    ...data,
  ]);
}
