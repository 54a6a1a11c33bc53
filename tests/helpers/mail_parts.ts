/**
 * Attachments of a received MIME mail (as nodemailer writes them: multipart/mixed with
 * base64 parts), for tests that open what was mailed.
 */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Every part of `raw` with a file name, decoded. */
export function mailAttachments(raw: string): MailAttachment[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  const out: MailAttachment[] = [];
  for (const part of raw.split(`--${boundary}`)) {
    const [head, ...rest] = part.split(/\r\n\r\n/);
    const unfolded = head.replace(/\r\n[ \t]+/g, " ");
    const name = fileNameOf(unfolded);
    if (!name) continue;
    const body = rest.join("\r\n\r\n").replace(/\s+/g, "");
    out.push({
      fileName: name,
      contentType: /content-type:\s*([^;\s]+)/i.exec(unfolded)?.[1] ?? "",
      bytes: /base64/i.test(unfolded)
        ? Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
        : new TextEncoder().encode(body),
    });
  }
  return out;
}

/** `filename="…"`, or its RFC 2231 form split over `filename*0*=utf-8''…; filename*1=…`. */
function fileNameOf(head: string): string | null {
  const pieces = [...head.matchAll(/filename\*(\d+)\*?=("?)([^";\r\n]+)\2/gi)]
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => m[3]);
  if (pieces.length) {
    return decodeURIComponent(pieces.join("").replace(/^utf-8''/i, ""));
  }
  const plain = /filename\*?=(?:utf-8'')?"?([^";\r\n]+)"?/i.exec(head)?.[1];
  return plain ? decodeURIComponent(plain) : null;
}
