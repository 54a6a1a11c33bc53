/**
 * The answer of a `/route/rest` call as UTF-8 JSON: `head` (code, message…) and the payload,
 * where a RawJson payload goes out as its ready parts instead of being serialised again.
 * A week's track is ~9 MB: the frame should stream `answerParts` (as the playback route does)
 * rather than copy them into one buffer.
 */
import { type OpenAnswer, RawJson } from "../types.ts";

const encoder = new TextEncoder();
const COMMA = encoder.encode(",");

/** `{...head, result?, data?}` as fragments to send in order. */
export function answerParts(head: Record<string, unknown>, answer: OpenAnswer): Uint8Array[] {
  const out: Uint8Array[] = [];
  const entries = Object.entries({ ...head, ...answer }).filter(([, v]) => v !== undefined);
  let text = "{";
  entries.forEach(([k, v], i) => {
    text += `${i ? "," : ""}${JSON.stringify(k)}:`;
    if (!(v instanceof RawJson)) return void (text += JSON.stringify(v));
    out.push(encoder.encode(text + v.open));
    v.parts.forEach((p, j) => {
      if (j) out.push(COMMA);
      out.push(p);
    });
    text = v.close;
  });
  out.push(encoder.encode(text + "}"));
  return out;
}

/** The same as one buffer (tests, small answers). */
export function answerBytes(head: Record<string, unknown>, answer: OpenAnswer): Uint8Array {
  const parts = answerParts(head, answer);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}
