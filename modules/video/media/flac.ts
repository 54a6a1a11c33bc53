/**
 * G.711 (A-law, µ-law) → FLAC, so browsers play the dashcam's audio: MSE refuses G.711 in MP4
 * but accepts FLAC (`audio/mp4; codecs="flac"`: Chromium, Firefox, Safari). The samples are
 * expanded to 16-bit PCM (a table) and written as FLAC frames with verbatim subframes (no
 * prediction: CPU is a copy and two CRCs; ~130 kbit/s at 8 kHz mono).
 */

/** Samples per FLAC frame (40 ms at 8 kHz); the stream has this fixed block size. */
export const FLAC_BLOCK = 320;

const ALAW = new Int16Array(256);
const ULAW = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  // ITU-T G.711 expansion.
  let a = i ^ 0x55;
  const aSeg = (a & 0x70) >> 4;
  let aVal = (a & 0x0f) << 4;
  aVal = aSeg === 0 ? aVal + 8 : aSeg === 1 ? aVal + 0x108 : (aVal + 0x108) << (aSeg - 1);
  ALAW[i] = a & 0x80 ? aVal : -aVal;
  a = ~i & 0xff;
  const uVal = (((a & 0x0f) << 3) + 0x84) << ((a & 0x70) >> 4);
  ULAW[i] = a & 0x80 ? 0x84 - uVal : uVal - 0x84;
}

export function decodeG711(bytes: Uint8Array, law: "a" | "u"): Int16Array {
  const table = law === "a" ? ALAW : ULAW;
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = table[bytes[i]];
  return out;
}

/** The dfLa box payload (ISO/IEC 14496-12 FLAC mapping): a last STREAMINFO metadata block. */
export function dfLa(sampleRate: number): Uint8Array {
  const out = new Uint8Array(4 + 4 + 34);
  const v = new DataView(out.buffer);
  // FullBox version/flags 0, then the metadata block header: last, type 0 (STREAMINFO), 34 bytes.
  v.setUint32(4, (0x80 << 24) | 34);
  v.setUint16(8, FLAC_BLOCK);
  v.setUint16(10, FLAC_BLOCK);
  // min/max frame size: 0 (unknown)
  const packed = (BigInt(sampleRate) << 44n) | (0n << 41n) | (15n << 36n); // mono, 16 bits, length unknown
  v.setBigUint64(18, packed);
  // MD5: 16 zero bytes (not computed)
  return out;
}

/** Turns PCM into fixed-size FLAC frames; keeps the remainder for the next call (bounded). */
export class FlacEncoder {
  #pending = new Int16Array(0);
  #frameNumber = 0;
  constructor(private readonly sampleRate = 8000) {}

  push(pcm: Int16Array): Uint8Array[] {
    const all = new Int16Array(this.#pending.length + pcm.length);
    all.set(this.#pending);
    all.set(pcm, this.#pending.length);
    const frames: Uint8Array[] = [];
    let at = 0;
    for (; at + FLAC_BLOCK <= all.length; at += FLAC_BLOCK) {
      frames.push(this.#frame(all.subarray(at, at + FLAC_BLOCK)));
    }
    this.#pending = all.slice(at);
    return frames;
  }

  #frame(samples: Int16Array): Uint8Array {
    const number = utf8Number(this.#frameNumber++ % 0x80000000);
    const head = [0xff, 0xf8, (0x7 << 4) | rateCode(this.sampleRate), 0x08, ...number];
    head.push((FLAC_BLOCK - 1) >> 8, (FLAC_BLOCK - 1) & 0xff);
    head.push(crc8(head));
    const out = new Uint8Array(head.length + 1 + samples.length * 2 + 2);
    out.set(head);
    let o = head.length;
    out[o++] = 0x02; // verbatim subframe, no wasted bits
    for (const s of samples) {
      out[o++] = (s >> 8) & 0xff;
      out[o++] = s & 0xff;
    }
    const crc = crc16(out.subarray(0, o));
    out[o++] = crc >> 8;
    out[o] = crc & 0xff;
    return out;
  }
}

function rateCode(rate: number): number {
  const codes: Record<number, number> = {
    8000: 4,
    16000: 5,
    22050: 6,
    24000: 7,
    32000: 8,
    44100: 9,
    48000: 10,
  };
  return codes[rate] ?? 0; // 0: from STREAMINFO
}

/** FLAC's "UTF-8" coded frame number (up to 31 bits). */
function utf8Number(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  let lead = 0xc0;
  let room = 0x1f;
  while (n > room) {
    bytes.unshift(0x80 | (n & 0x3f));
    n = Math.floor(n / 64);
    lead = (lead >> 1) | 0x80;
    room >>= 1;
  }
  bytes.unshift((lead << 1) & 0xff | n);
  return bytes;
}

const CRC8 = new Uint8Array(256);
const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  CRC8[i] = c;
  let d = i << 8;
  for (let k = 0; k < 8; k++) d = d & 0x8000 ? ((d << 1) ^ 0x8005) & 0xffff : (d << 1) & 0xffff;
  CRC16[i] = d;
}

function crc8(bytes: number[]): number {
  let c = 0;
  for (const b of bytes) c = CRC8[c ^ b];
  return c;
}

function crc16(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) c = ((c << 8) & 0xffff) ^ CRC16[(c >> 8) ^ b];
  return c;
}
