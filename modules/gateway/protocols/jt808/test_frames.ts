/**
 * Test helper: builds device frames independently of encoder.ts (own XOR and escaping), so the
 * decoder tests do not trust the code they check.
 */
export function hex(s: string): Uint8Array {
  const clean = s.replace(/[\s|]/g, "");
  return Uint8Array.from(clean.match(/../g) ?? [], (b) => parseInt(b, 16));
}

export function toHexString(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface FrameSpec {
  msgId: number;
  /** Terminal phone as hex (12 digits for 2013, 20 for 2019). */
  terminal?: string;
  serial?: number;
  body?: string;
  /** Protocol version byte: makes a 2019 frame. */
  version?: number;
  /** Overrides the computed check code (to test wrong ones). */
  check?: number;
}

/** Unescaped frame, flags included (what the splitter hands to the decoder). */
export function frame(spec: FrameSpec): Uint8Array {
  const body = hex(spec.body ?? "");
  const terminal = hex(
    spec.terminal ?? (spec.version === undefined ? "013912345678" : "00000000013912345678"),
  );
  const props = body.length | (spec.version === undefined ? 0 : 0x4000);
  const serial = spec.serial ?? 1;
  const header = [
    spec.msgId >> 8,
    spec.msgId & 0xff,
    props >> 8,
    props & 0xff,
    ...(spec.version === undefined ? [] : [spec.version]),
    ...terminal,
    serial >> 8,
    serial & 0xff,
  ];
  const content = [...header, ...body];
  const check = spec.check ?? content.reduce((x, b) => x ^ b, 0);
  return Uint8Array.from([0x7e, ...content, check, 0x7e]);
}

/** Escapes an unescaped frame for the wire. */
export function wire(unescaped: Uint8Array): Uint8Array {
  const out: number[] = [0x7e];
  for (const b of unescaped.subarray(1, unescaped.length - 1)) {
    if (b === 0x7e) out.push(0x7d, 0x02);
    else if (b === 0x7d) out.push(0x7d, 0x01);
    else out.push(b);
  }
  out.push(0x7e);
  return Uint8Array.from(out);
}

/** Deterministic PRNG for fuzz tests (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
