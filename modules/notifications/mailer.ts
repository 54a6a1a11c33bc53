import { Buffer } from "node:buffer";
import nodemailer from "nodemailer";
import type { Config } from "../../lib/config.ts";
import { BizError } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";

const mailLog = log.area("mail");

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the mail (automatic reports attach their xlsx). */
  attachments?: { filename: string; content: Uint8Array; contentType: string }[];
}

/** SMTP delivery configured by SMTP_* variables; without SMTP_HOST mail is switched off. */
export class Mailer {
  private transport: ReturnType<typeof nodemailer.createTransport> | null;
  readonly from: string;

  constructor(
    config: Pick<
      Config,
      "SMTP_HOST" | "SMTP_PORT" | "SMTP_USER" | "SMTP_PASS" | "SMTP_FROM" | "SMTP_SECURE"
    >,
  ) {
    this.from = config.SMTP_FROM;
    this.transport = config.SMTP_HOST
      ? nodemailer.createTransport({
        host: config.SMTP_HOST,
        port: config.SMTP_PORT,
        secure: config.SMTP_SECURE === "on",
        auth: config.SMTP_USER
          ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? "" }
          : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
      : null;
  }

  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Sends one mail; refuses with "server unavailable" or "send failed" as the spec names them. */
  async send(mail: Mail): Promise<void> {
    if (!this.transport) throw new BizError("mailServerUnavailable");
    try {
      await this.transport.sendMail({
        from: this.from,
        ...mail,
        attachments: mail.attachments?.map((a) => ({ ...a, content: Buffer.from(a.content) })),
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      mailLog.error(`sending failed: ${code ?? ""} ${(e as Error).message}`);
      throw new BizError(
        code === "ECONNECTION" || code === "ETIMEDOUT" || code === "ESOCKET"
          ? "mailServerUnavailable"
          : "mailSendFailed",
      );
    }
  }
}
