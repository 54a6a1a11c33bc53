/**
 * The decoder configuration records of the MP4 sample entries: avcC (ISO 14496-15 §5.3.3) from
 * the H.264 SPS/PPS and hvcC (§8.3.3) from the H.265 VPS/SPS/PPS.
 */
import { concatBytes } from "./mp4.ts";
import type { H265SpsInfo } from "./nal.ts";

function sized(nal: Uint8Array): Uint8Array {
  return concatBytes([new Uint8Array([nal.length >> 8, nal.length & 0xff]), nal]);
}

export function avcC(sps: Uint8Array[], pps: Uint8Array[]): Uint8Array {
  const first = sps[0];
  return concatBytes([
    new Uint8Array([1, first[1], first[2], first[3], 0xff, 0xe0 | sps.length]),
    ...sps.map(sized),
    new Uint8Array([pps.length]),
    ...pps.map(sized),
  ]);
}

export function hvcC(
  info: H265SpsInfo,
  vps: Uint8Array[],
  sps: Uint8Array[],
  pps: Uint8Array[],
): Uint8Array {
  const arrays = [[32, vps], [33, sps], [34, pps]] as const;
  return concatBytes([
    new Uint8Array([1]),
    info.profileTierLevel,
    new Uint8Array([
      0xf0,
      0x00,
      0xfc,
      0xfc | info.chromaFormat,
      0xf8 | (info.bitDepthLuma - 8),
      0xf8 | (info.bitDepthChroma - 8),
      0,
      0,
      // constantFrameRate 0, one temporal layer, temporal id nested, 4-byte NAL lengths.
      0x0f,
      arrays.length,
    ]),
    ...arrays.flatMap(([type, nals]) => [
      new Uint8Array([0x80 | type, nals.length >> 8, nals.length & 0xff]),
      ...nals.map(sized),
    ]),
  ]);
}
