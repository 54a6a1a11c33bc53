/**
 * H.264 / H.265 Annex-B parsing: NAL units between start codes, their types (SPS, PPS, VPS, IDR),
 * and the SPS fields the MP4 sample entry and the codec string need (size, profile, level).
 */
import type { VideoCodec } from "../model.ts";

/** NAL units of an Annex-B buffer (start codes removed). */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  const n = data.length;
  while (i + 2 < n) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      if (start >= 0) out.push(trimZeros(data.subarray(start, i)));
      i += 3;
      start = i;
      continue;
    }
    i++;
  }
  if (start >= 0 && start < n) out.push(data.subarray(start, n));
  return out.filter((nal) => nal.length > 0);
}

/** Drops the trailing zero of a 4-byte start code (and trailing_zero_8bits). */
function trimZeros(nal: Uint8Array): Uint8Array {
  let end = nal.length;
  while (end > 0 && nal[end - 1] === 0) end--;
  return nal.subarray(0, end);
}

export function h264Type(nal: Uint8Array): number {
  return nal[0] & 0x1f;
}
export function h265Type(nal: Uint8Array): number {
  return (nal[0] >> 1) & 0x3f;
}

export const H264 = { IDR: 5, SEI: 6, SPS: 7, PPS: 8, AUD: 9 } as const;
export const H265 = { VPS: 32, SPS: 33, PPS: 34, AUD: 35, SEI_PREFIX: 39 } as const;

/** H.265 IRAP pictures (BLA, IDR, CRA: types 16-23) start a decodable segment. */
export function isKeyNal(codec: VideoCodec, nal: Uint8Array): boolean {
  if (codec === "h264") return h264Type(nal) === H264.IDR;
  const t = h265Type(nal);
  return t >= 16 && t <= 23;
}

/** Parameter sets are carried in the sample entry, not in samples. */
export function isParameterSet(codec: VideoCodec, nal: Uint8Array): boolean {
  if (codec === "h264") {
    const t = h264Type(nal);
    return t === H264.SPS || t === H264.PPS || t === H264.AUD;
  }
  const t = h265Type(nal);
  return t === H265.VPS || t === H265.SPS || t === H265.PPS || t === H265.AUD;
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00). */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let o = 0;
  let zeros = 0;
  for (let i = 0; i < nal.length; i++) {
    const b = nal[i];
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    out[o++] = b;
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, o);
}

/** Exp-Golomb bit reader; reading past the end throws (the caller treats it as a bad SPS). */
export class BitReader {
  #bit = 0;
  constructor(private readonly data: Uint8Array) {}
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.#bit >> 3;
      if (byte >= this.data.length) throw new RangeError("bitstream ended");
      v = v * 2 + ((this.data[byte] >> (7 - (this.#bit & 7))) & 1);
      this.#bit++;
    }
    return v;
  }
  skip(n: number): void {
    this.#bit += n;
  }
  ue(): number {
    let zeros = 0;
    while (this.bits(1) === 0) if (++zeros > 31) throw new RangeError("bad exp-golomb");
    return 2 ** zeros - 1 + this.bits(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

export interface SpsInfo {
  width: number;
  height: number;
  /** RFC 6381 codec string, e.g. avc1.42c01e or hvc1.1.6.L93.B0. */
  codecString: string;
}

/** H.264 SPS: profile/level and the cropped picture size. Null when it does not parse. */
export function parseH264Sps(nal: Uint8Array): SpsInfo | null {
  try {
    const r = new BitReader(unescapeRbsp(nal.subarray(1)));
    const profile = r.bits(8);
    const constraints = r.bits(8);
    const level = r.bits(8);
    r.ue(); // seq_parameter_set_id
    let chroma = 1;
    if ([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].includes(profile)) {
      chroma = r.ue();
      if (chroma === 3) r.skip(1);
      r.ue(); // bit_depth_luma_minus8
      r.ue(); // bit_depth_chroma_minus8
      r.skip(1);
      if (r.bits(1)) skipScalingLists(r, chroma === 3 ? 12 : 8);
    }
    r.ue(); // log2_max_frame_num_minus4
    const pocType = r.ue();
    if (pocType === 0) r.ue();
    else if (pocType === 1) {
      r.skip(1);
      r.se();
      r.se();
      const n = r.ue();
      for (let i = 0; i < n; i++) r.se();
    }
    r.ue(); // max_num_ref_frames
    r.skip(1);
    const widthMbs = r.ue() + 1;
    const heightMapUnits = r.ue() + 1;
    const frameMbsOnly = r.bits(1);
    if (!frameMbsOnly) r.skip(1);
    r.skip(1); // direct_8x8_inference_flag
    let crop = [0, 0, 0, 0];
    if (r.bits(1)) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
    const cropX = chroma === 0 || chroma === 3 ? 1 : 2;
    const cropY = (chroma === 1 ? 2 : 1) * (2 - frameMbsOnly);
    const hex = (v: number) => v.toString(16).padStart(2, "0");
    return {
      width: widthMbs * 16 - (crop[0] + crop[1]) * cropX,
      height: (2 - frameMbsOnly) * heightMapUnits * 16 - (crop[2] + crop[3]) * cropY,
      codecString: `avc1.${hex(profile)}${hex(constraints)}${hex(level)}`,
    };
  } catch {
    return null;
  }
}

function skipScalingLists(r: BitReader, count: number): void {
  for (let i = 0; i < count; i++) {
    if (!r.bits(1)) continue;
    const size = i < 6 ? 16 : 64;
    let last = 8;
    let next = 8;
    for (let j = 0; j < size; j++) {
      if (next !== 0) next = (last + r.se() + 256) % 256;
      last = next === 0 ? last : next;
    }
  }
}

/** The 12 general profile_tier_level bytes of an H.265 SPS and the picture size. */
export interface H265SpsInfo extends SpsInfo {
  /** general_profile_space/tier/idc, compatibility flags (4), constraint flags (6), level. */
  profileTierLevel: Uint8Array;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
}

export function parseH265Sps(nal: Uint8Array): H265SpsInfo | null {
  try {
    const rbsp = unescapeRbsp(nal.subarray(2));
    const r = new BitReader(rbsp);
    r.skip(4); // sps_video_parameter_set_id
    const maxSubLayersMinus1 = r.bits(3);
    r.skip(1);
    const ptl = rbsp.slice(1, 13);
    r.skip(96);
    const subProfile: number[] = [];
    const subLevel: number[] = [];
    for (let i = 0; i < maxSubLayersMinus1; i++) {
      subProfile.push(r.bits(1));
      subLevel.push(r.bits(1));
    }
    if (maxSubLayersMinus1 > 0) { for (let i = maxSubLayersMinus1; i < 8; i++) r.skip(2); }
    for (let i = 0; i < maxSubLayersMinus1; i++) {
      if (subProfile[i]) r.skip(88);
      if (subLevel[i]) r.skip(8);
    }
    r.ue(); // sps_seq_parameter_set_id
    const chroma = r.ue();
    if (chroma === 3) r.skip(1);
    let width = r.ue();
    let height = r.ue();
    if (r.bits(1)) {
      const sub = chroma === 1 || chroma === 2 ? 2 : 1;
      const subH = chroma === 1 ? 2 : 1;
      const [left, right, top, bottom] = [r.ue(), r.ue(), r.ue(), r.ue()];
      width -= (left + right) * sub;
      height -= (top + bottom) * subH;
    }
    const bitDepthLuma = r.ue() + 8;
    const bitDepthChroma = r.ue() + 8;
    return {
      width,
      height,
      codecString: h265CodecString(ptl),
      profileTierLevel: ptl,
      chromaFormat: chroma,
      bitDepthLuma,
      bitDepthChroma,
    };
  } catch {
    return null;
  }
}

/** RFC 6381 / ISO 14496-15 annex E: hvc1.<space><profile>.<compat reversed>.<tier><level>.<constraints>. */
function h265CodecString(ptl: Uint8Array): string {
  const space = ["", "A", "B", "C"][ptl[0] >> 6];
  const tier = (ptl[0] & 0x20) ? "H" : "L";
  const profile = ptl[0] & 0x1f;
  let compat = (ptl[1] << 24 | ptl[2] << 16 | ptl[3] << 8 | ptl[4]) >>> 0;
  let reversed = 0;
  for (let i = 0; i < 32; i++) {
    reversed = (reversed << 1) | (compat & 1);
    compat >>>= 1;
  }
  const constraints = Array.from(ptl.subarray(5, 11));
  while (constraints.length > 1 && constraints[constraints.length - 1] === 0) constraints.pop();
  const c = constraints.map((b) => b.toString(16).toUpperCase()).join(".");
  return `hvc1.${space}${profile}.${(reversed >>> 0).toString(16).toUpperCase()}.${tier}${
    ptl[11]
  }.${c}`;
}
