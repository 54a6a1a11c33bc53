/** The mail of one auto report run: the xlsx attached, the text in the owner's language. */
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { Account } from "../accounts/model.ts";
import { formatTime } from "../monitor/time.ts";
import type { Mail } from "../notifications/mailer.ts";
import type { TaskOutput } from "../tasks/model.ts";
import type { Slot } from "./schedule.ts";
import type { AutoReportRecord } from "./types.ts";

/** "2026-11-25", or "2026-11-16 – 2026-11-22" for a longer period, in the owner's zone. */
export function periodLabel(slot: Pick<Slot, "from" | "to">, timeZone: string): string {
  const first = formatTime(slot.from, timeZone, "YYYY-MM-DD");
  const last = formatTime(slot.to - 1, timeZone, "YYYY-MM-DD");
  return first === last ? first : `${first} – ${last}`;
}

export function autoReportMail(
  record: AutoReportRecord,
  owner: Account,
  lang: Lang,
  slot: Slot,
  file: { output: TaskOutput; rows: number },
): Mail {
  const t = translator(lang);
  const zone = owner.timeZones || "UTC";
  const values = {
    name: record.name,
    report: t(`reports.names.${record.reportType}`),
    period: periodLabel(slot, zone),
    frequency: t(`autoReports.frequencies.${record.frequency}`),
    rows: file.rows,
    zone,
    account: owner.account,
    file: file.output.fileName,
  };
  return {
    to: record.emails.join(", "),
    subject: t("autoReports.mail.subject", values),
    text: t("autoReports.mail.text", values),
    attachments: [{
      filename: file.output.fileName,
      content: file.output.bytes,
      contentType: file.output.contentType,
    }],
  };
}
