import ExcelJS from "exceljs";
import { BizError } from "../../lib/errors.ts";
import type { ChangeRecord } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import {
  type BusinessLogEntry,
  type BusinessLogQuery,
  type BusinessLogRow,
  KEEP_DAYS,
  MAX_EXPORT_ROWS,
} from "./model.ts";
import { describeDetail, describeTarget, inputOf } from "./recorder.ts";
import type { BusinessLogStore } from "./store.ts";

type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * Records business operations and lists them: a caller sees the operations of its own
 * subtree's accounts (its own, its descendants' and their virtual accounts'), never an
 * ancestor's or a sibling's.
 */
export class BusinessLog {
  constructor(
    private readonly store: BusinessLogStore,
    private readonly access: AccessGuard,
    private readonly accounts: AccountLookup,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The change hook (app/app.ts): one entry, visible to the actor's owner and its ancestors. */
  async record({ c, def, input, form }: ChangeRecord): Promise<void> {
    const session = c.var.session;
    const { self, owner } = await this.access.caller(session);
    const route = def.path;
    const fields = inputOf(input, form);
    const time = this.now().toISOString();
    const entry: BusinessLogEntry = {
      id: `${time}-${crypto.randomUUID().slice(0, 8)}`,
      time,
      actorId: self.id,
      account: self.account,
      route,
      area: def.tag,
      target: await describeTarget(route, fields, this.accounts),
      detail: describeDetail(fields),
      ip: c.var.clientIp,
    };
    const audience = [owner.id, ...owner.fullParentId.split(",").filter(Boolean)];
    await this.store.add(entry, [...new Set(audience)]);
  }

  /** One page of the caller's subtree's operations, newest first. */
  async page(
    session: Session,
    q: BusinessLogQuery & { pageNum: number; pageSize: number },
    t: Translate,
  ): Promise<{ total: number; list: BusinessLogRow[] }> {
    const skip = (q.pageNum - 1) * q.pageSize;
    const list: BusinessLogRow[] = [];
    let seen = 0;
    const counted = !q.keyword?.trim();
    for await (const e of this.matching(session, q)) {
      if (seen >= skip) list.push(toRow(e, t));
      seen++;
      // Without a keyword the day counters give the total: read only up to the page.
      if (counted && list.length === q.pageSize) break;
    }
    if (!counted) return { total: seen, list };
    const { owner } = await this.access.caller(session);
    const { from, to } = idRange(q);
    return { total: await this.store.countBetween(owner.id, from, to), list };
  }

  /** The filtered log as an xlsx workbook (at most MAX_EXPORT_ROWS rows). */
  async export(
    session: Session,
    q: BusinessLogQuery,
    t: Translate,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const rows: BusinessLogRow[] = [];
    for await (const e of this.matching(session, q)) {
      if (rows.length === MAX_EXPORT_ROWS) {
        throw new BizError("exportTooLarge", { limit: MAX_EXPORT_ROWS });
      }
      rows.push(toRow(e, t));
    }
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(t("help.businessLog.title"));
    const cols = ["time", "account", "action", "target", "detail", "ip"] as const;
    ws.addRow(cols.map((k) => t(`help.businessLog.${k}`)));
    ws.getRow(1).font = { bold: true };
    for (const r of rows) ws.addRow(cols.map((k) => k === "time" ? localTime(r.time) : r[k]));
    ws.columns.forEach((c, i) => (c.width = [20, 16, 28, 30, 60, 16][i]));
    return new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
  }

  /** Removes entries older than KEEP_DAYS (the daily job). */
  prune(): Promise<number> {
    const cutoff = new Date(this.now().getTime() - KEEP_DAYS * 86_400_000).toISOString();
    return this.store.removeBefore(cutoff);
  }

  private async *matching(session: Session, q: BusinessLogQuery) {
    const { owner } = await this.access.caller(session);
    const { from, to } = idRange(q);
    if (from && from > to) throw new BizError("startAfterEnd");
    const keyword = q.keyword?.trim().toLowerCase() ?? "";
    for await (const e of this.store.newestFirst(owner.id, from, to)) {
      if (!keyword || haystack(e).includes(keyword)) yield e;
    }
  }
}

/** The ids a query's time range spans ("\uffff" sorts after the suffix of an entry made at the end time itself). */
function idRange(q: BusinessLogQuery): { from: string; to: string } {
  return {
    from: q.startTime ? new Date(q.startTime).toISOString() : "",
    to: (q.endTime ? new Date(q.endTime).toISOString() : "9999") + "\uffff",
  };
}

const haystack = (e: BusinessLogEntry) =>
  [e.account, e.route, e.area, e.target, e.detail, e.ip].join("\n").toLowerCase();

/** "Devices · transferEquipment": the area in the caller's language and the operation. */
function toRow(e: BusinessLogEntry, t: Translate): BusinessLogRow {
  const operation = e.route.replace(/^\/v3\/new\//, "");
  const area = t(`help.businessLog.areas.${e.area}`, { defaultValue: e.area });
  return {
    time: e.time,
    account: e.account,
    action: `${area} · ${operation}`,
    target: e.target,
    detail: e.detail,
    ip: e.ip,
  };
}

const localTime = (iso: string) => iso.replace("T", " ").slice(0, 19);
