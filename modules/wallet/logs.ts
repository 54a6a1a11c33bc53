import ExcelJS from "exceljs";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import {
  CARD_TYPES,
  type LedgerEntry,
  LOG_VIEWS,
  type LogView,
  MAX_LOG_EXPORT,
  toCoins,
} from "./model.ts";
import type { WalletStore } from "./store.ts";

export interface LogQuery {
  view: LogView;
  userId?: string;
  startTime?: string;
  endTime?: string;
  pageNum: number;
  pageSize: number;
}

/** A log row as the API answers it: coins as decimals, the other account's login name. */
export interface LogRow extends Omit<LedgerEntry, "coinCents"> {
  coins: number;
  counterpart: string;
  operator: string;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * The wallet page's logs of one account of the caller's subtree: consumption (renewals,
 * refunds, packages bought), allocation (coins and cards given, received, issued) and the
 * business log (every movement), filtered by time, and their xlsx export.
 */
export class WalletLogs {
  constructor(
    private readonly store: WalletStore,
    private readonly access: AccessGuard,
    private readonly accounts: AccountLookup,
  ) {}

  async page(session: Session, q: LogQuery): Promise<{ total: number; list: LogRow[] }> {
    const a = await this.account(session, q.userId);
    const { total, list } = await this.store.ledgerPage(
      a.id,
      range(q),
      (q.pageNum - 1) * q.pageSize,
      q.pageSize,
    );
    return { total, list: await this.rows(list) };
  }

  /** The filtered log as an xlsx workbook (at most MAX_LOG_EXPORT rows). */
  async export(session: Session, q: Omit<LogQuery, "pageNum" | "pageSize">, t: Translate) {
    const a = await this.account(session, q.userId);
    const { total, list } = await this.store.ledgerPage(
      a.id,
      range(q),
      0,
      MAX_LOG_EXPORT,
    );
    if (total > MAX_LOG_EXPORT) throw new BizError("exportTooLarge", { limit: MAX_LOG_EXPORT });
    const rows = await this.rows(list);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(t(`wallet.log.views.${q.view}`));
    const cardCols = CARD_TYPES.map((c) => t(`wallet.cardTypes.${c}`));
    ws.addRow([
      t("wallet.log.time"),
      t("wallet.log.account"),
      t("wallet.log.kind"),
      t("wallet.log.coins"),
      ...cardCols,
      t("wallet.log.counterpart"),
      t("wallet.log.detail"),
      t("wallet.log.operator"),
    ]);
    ws.getRow(1).font = { bold: true };
    for (const r of rows) {
      ws.addRow([
        r.time.replace("T", " ").slice(0, 19),
        a.account,
        t(`wallet.kinds.${r.kind}`),
        r.coins,
        ...CARD_TYPES.map((c) => r.cards[c] ?? 0),
        r.counterpart,
        detail(r, t),
        r.operator,
      ]);
    }
    ws.columns.forEach((c) => (c.width = 16));
    return new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
  }

  private async account(session: Session, userId?: string) {
    const { owner } = await this.access.caller(session);
    return userId ? await this.access.visibleAccount(session, userId) : owner;
  }

  private async rows(list: LedgerEntry[]): Promise<LogRow[]> {
    const ids = [...new Set(list.flatMap((e) => [e.counterpartId ?? "", e.operatorId]))]
      .filter(Boolean);
    const names = new Map((await this.accounts.getMany(ids)).map((a) => [a.id, a.account]));
    return list.map(({ coinCents, ...e }) => ({
      ...e,
      coins: toCoins(coinCents),
      counterpart: e.counterpartId ? names.get(e.counterpartId) ?? "" : "",
      operator: names.get(e.operatorId) ?? "",
    }));
  }
}

/** The filter of a query: its view's kinds and its range as stored (UTC ISO strings). */
const range = (q: Omit<LogQuery, "pageNum" | "pageSize">) => ({
  kinds: LOG_VIEWS[q.view],
  from: q.startTime ? new Date(q.startTime).toISOString() : undefined,
  to: q.endTime ? new Date(q.endTime).toISOString() : undefined,
});

/** What a row is about, in words: devices renewed, the package, the card code. */
export function detail(r: LogRow, t: Translate): string {
  if (r.devices?.length) {
    const imeis = r.devices.slice(0, 5).map((d) => d.imei).join(", ");
    return t("wallet.log.devices", {
      count: r.devices.length,
      imeis: r.devices.length > 5 ? `${imeis} …` : imeis,
      months: r.term ?? "",
    });
  }
  if (r.packageName) return t("wallet.log.package", { name: r.packageName, sms: r.smsCount ?? 0 });
  if (r.code) return t("wallet.log.code", { code: r.code });
  return "";
}
