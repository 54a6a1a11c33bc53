import ExcelJS from "exceljs";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { Account, AccountLookup, AccountSummary } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import { ACCOUNT_INFO_EXPORT_MINUTES, ACCOUNT_INFO_MAX_ROWS } from "./model.ts";
import type { AccountInfoStore } from "./store.ts";

type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * The account info export: one account's details and every account below it, as xlsx.
 * Allowed once every ten minutes per exported account (exportTooOften otherwise); the slot
 * is taken only after the caller was found allowed to see the account.
 */
export class AccountInfoExport {
  constructor(
    private readonly d: {
      access: AccessGuard;
      accounts: AccountLookup;
      directory: Pick<DeviceDirectory, "ownedBy">;
      store: AccountInfoStore;
      now?: () => number;
    },
  ) {}

  async export(
    session: Session,
    id: string,
    t: Translate,
  ): Promise<{ name: string; bytes: Uint8Array<ArrayBuffer> }> {
    const account = await this.d.access.visibleAccount(session, id);
    const now = this.d.now?.() ?? Date.now();
    if (!await this.d.store.claim(account.id, now, ACCOUNT_INFO_EXPORT_MINUTES * 60_000)) {
      throw new BizError("exportTooOften");
    }
    const wb = new ExcelJS.Workbook();
    this.detailsSheet(wb, account, t);
    await this.subtreeSheet(wb, account, t);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
    return { name: `account-${account.account}.xlsx`.replace(/[^\w.@-]/g, "_"), bytes };
  }

  private detailsSheet(wb: ExcelJS.Workbook, a: Account, t: Translate) {
    const ws = wb.addWorksheet(t("demo.accountInfo.details"));
    const rows: [string, string | number][] = [
      ["account", a.account],
      ["nickName", a.nickName],
      ["accountType", t(`shell.accountTypes.${a.accountType}`)],
      ["contact", a.contact],
      ["phone", a.phone],
      ["email", a.email],
      ["companyName", a.companyName],
      ["country", a.country],
      ["timeZones", a.timeZones],
      ["language", a.language],
      ["expiration", a.expiration ?? t("demo.accountInfo.never")],
      ["devices", this.d.directory.ownedBy(a.id).length],
      ["createdAt", a.createdAt.replace("T", " ").slice(0, 19)],
      ["description", a.description],
    ];
    for (const [k, v] of rows) ws.addRow([t(`demo.accountInfo.fields.${k}`), v]);
    ws.getColumn(1).font = { bold: true };
    ws.getColumn(1).width = 22;
    ws.getColumn(2).width = 40;
  }

  private async subtreeSheet(wb: ExcelJS.Workbook, a: Account, t: Translate) {
    const ws = wb.addWorksheet(t("demo.accountInfo.subAccounts"));
    ws.addRow(
      ["account", "nickName", "accountType", "parent", "devices"].map((k) =>
        t(`demo.accountInfo.fields.${k}`)
      ),
    );
    ws.getRow(1).font = { bold: true };
    // Parents are named after the whole list is read: the index is not in tree order.
    const logins = new Map([[a.id, a.account]]);
    const rows: { id: string; summary: AccountSummary }[] = [];
    let cut = false;
    for await (const entry of this.d.accounts.subtree(a.id)) {
      if (rows.length >= ACCOUNT_INFO_MAX_ROWS) {
        cut = true;
        break;
      }
      rows.push(entry);
      logins.set(entry.id, entry.summary.account);
    }
    for (const { id, summary } of rows) {
      ws.addRow([
        summary.account,
        summary.nickName,
        t(`shell.accountTypes.${summary.accountType}`),
        logins.get(summary.parentId) ?? "",
        this.d.directory.ownedBy(id).length,
      ]);
    }
    if (cut) ws.addRow([t("demo.accountInfo.cut", { max: ACCOUNT_INFO_MAX_ROWS })]);
    ws.columns.forEach((c) => (c.width = 20));
  }
}
