/**
 * JT/T 808 transparent escaping between the 0x7E flags:
 * 0x7E ↔ 0x7D 0x02 and 0x7D ↔ 0x7D 0x01.
 */

export const FLAG = 0x7e;
export const ESCAPE = 0x7d;

/** Escapes a frame's content (header + body + check code, without the flags). */
export function escape(content: Uint8Array): Uint8Array {
  let extra = 0;
  for (const b of content) if (b === FLAG || b === ESCAPE) extra++;
  const out = new Uint8Array(content.length + extra);
  let j = 0;
  for (const b of content) {
    if (b === FLAG) {
      out[j++] = ESCAPE;
      out[j++] = 0x02;
    } else if (b === ESCAPE) {
      out[j++] = ESCAPE;
      out[j++] = 0x01;
    } else {
      out[j++] = b;
    }
  }
  return out;
}

/**
 * Reverses {@link escape}. A 0x7D followed by anything else is kept as is: devices with buggy
 * escaping exist and the bytes are more useful than a dropped frame.
 */
export function unescape(escaped: Uint8Array): Uint8Array {
  const out = new Uint8Array(escaped.length);
  let j = 0;
  for (let i = 0; i < escaped.length; i++) {
    const b = escaped[i];
    if (b === ESCAPE && i + 1 < escaped.length) {
      const next = escaped[i + 1];
      if (next === 0x02) {
        out[j++] = FLAG;
        i++;
        continue;
      }
      if (next === 0x01) {
        out[j++] = ESCAPE;
        i++;
        continue;
      }
    }
    out[j++] = b;
  }
  return out.slice(0, j);
}

/** Wraps content (header + body + check code) into a wire frame: flag, escaped content, flag. */
export function wrapFrame(content: Uint8Array): Uint8Array {
  const escaped = escape(content);
  const out = new Uint8Array(escaped.length + 2);
  out[0] = FLAG;
  out.set(escaped, 1);
  out[out.length - 1] = FLAG;
  return out;
}
