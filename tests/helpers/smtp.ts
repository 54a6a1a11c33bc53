import { SMTPServer } from "smtp-server";
import { concatBytes } from "../../lib/bytes.ts";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
}

/**
 * A real SMTP server (npm smtp-server) on a loopback port that keeps what it receives,
 * for tests of mail delivery. No TLS, any login accepted.
 */
export async function startSmtp() {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c: Uint8Array) => chunks.push(c));
      stream.on("end", () => {
        const raw = new TextDecoder().decode(concatBytes(chunks));
        const subject = decodeSubject(raw.match(/^Subject: (.*(?:\r\n[ \t].*)*)/m)?.[1] ?? "");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(
      0,
      "127.0.0.1",
      () => resolve((server.server.address() as { port: number }).port),
    );
  });
  return {
    port,
    mails,
    /** Waits until at least n mails arrived (or fails after 5 s). */
    async waitFor(n: number): Promise<ReceivedMail[]> {
      const deadline = Date.now() + 5000;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return mails;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Decodes RFC 2047 encoded words (nodemailer encodes non-ASCII subjects). */
function decodeSubject(s: string): string {
  return s.replace(/\r\n[ \t]/g, "").replace(
    /=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi,
    (_m, enc: string, text: string) =>
      enc.toUpperCase() === "B"
        ? new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)))
        : decodeURIComponent(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, "%$1")),
  );
}

/** The body text of a simple text/plain mail (quoted-printable or plain). */
export function mailText(raw: string): string {
  const [head, ...rest] = raw.split(/\r\n\r\n/);
  const body = rest.join("\r\n\r\n");
  // Only a quoted-printable body is decoded: in a 7bit one "token=2C…" is text, not a comma.
  if (!/^Content-Transfer-Encoding:\s*quoted-printable/im.test(head)) return body;
  return body.replace(/=\r\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_m, h) => String.fromCharCode(parseInt(h, 16)),
  );
}

/** The server environment that sends the server's mail to this test SMTP server. */
export function smtpEnv(smtp: { port: number }): { SMTP_HOST: string; SMTP_PORT: string } {
  return { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) };
}
