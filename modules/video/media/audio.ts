/**
 * Audio of JT/T 1078 streams: the codec named by the payload type (table 12), the 4-byte
 * HiSilicon header many terminals put before each audio frame (`00 01 <half the payload
 * length> 00`), and AAC ADTS frames (header → AudioSpecificConfig, raw access units).
 */
import type { AudioCodec } from "../model.ts";

/** Table 12 payload types of the audio codecs we name. */
export function audioCodecOf(payloadType: number): AudioCodec {
  switch (payloadType) {
    case 6:
      return "g711a";
    case 7:
      return "g711u";
    case 8:
      return "g726";
    case 19:
    case 21:
    case 24:
      return "aac";
    case 26:
      return "adpcm";
    default:
      return "unknown";
  }
}

/** Removes the HiSilicon header when the frame starts with `00 01 xx 00` and xx matches the length. */
export function stripHiSilicon(frame: Uint8Array): Uint8Array {
  if (frame.length > 4 && frame[0] === 0x00 && frame[1] === 0x01 && frame[3] === 0x00) {
    const halfWords = frame[2];
    const rest = frame.length - 4;
    if (halfWords * 2 === rest || halfWords === rest || halfWords === 0) return frame.subarray(4);
  }
  return frame;
}

const AAC_RATES = [
  96000,
  88200,
  64000,
  48000,
  44100,
  32000,
  24000,
  22050,
  16000,
  12000,
  11025,
  8000,
  7350,
];

export interface AdtsFrame {
  sampleRate: number;
  channels: number;
  /** AudioSpecificConfig (2 bytes). */
  asc: Uint8Array;
  /** The raw access unit (ADTS header removed). */
  data: Uint8Array;
}

/** ADTS frames in `data` (several may share one JT/T 1078 audio frame); junk ends the scan. */
export function parseAdts(data: Uint8Array): AdtsFrame[] {
  const out: AdtsFrame[] = [];
  let at = 0;
  while (at + 7 <= data.length) {
    if (data[at] !== 0xff || (data[at + 1] & 0xf6) !== 0xf0) break;
    const protectionAbsent = data[at + 1] & 1;
    const objectType = (data[at + 2] >> 6) + 1;
    const rateIndex = (data[at + 2] >> 2) & 0x0f;
    const channels = ((data[at + 2] & 1) << 2) | (data[at + 3] >> 6);
    const length = ((data[at + 3] & 3) << 11) | (data[at + 4] << 3) | (data[at + 5] >> 5);
    const header = protectionAbsent ? 7 : 9;
    if (rateIndex >= AAC_RATES.length || length < header || at + length > data.length) break;
    const asc = new Uint8Array([
      (objectType << 3) | (rateIndex >> 1),
      ((rateIndex & 1) << 7) | (channels << 3),
    ]);
    out.push({
      sampleRate: AAC_RATES[rateIndex],
      channels: channels || 1,
      asc,
      data: data.slice(at + header, at + length),
    });
    at += length;
  }
  return out;
}
