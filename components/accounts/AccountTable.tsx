import type { TFunction } from "i18next";
import { RowMenu } from "../ui/RowMenu.tsx";
import { TypeTag } from "./TypeTag.tsx";
import { type AccountRow, formatDateTime } from "./types.ts";

export type RowAction = "edit" | "reset" | "move" | "devices" | "exportInfo" | "delete";
/** Edit is the row's one link; the rest wait under "More" so the Actions column stays narrow
 * and every column fits at 1280 px. */
const MORE: RowAction[] = ["reset", "move", "devices", "exportInfo", "delete"];

interface Props {
  t: TFunction;
  rows: AccountRow[];
  loading: boolean;
  /** Without it the checkbox and action columns are left out. */
  canModify: boolean;
  checked: Record<string, AccountRow>;
  onCheck: (rows: AccountRow[], on: boolean) => void;
  onAction: (action: RowAction, row: AccountRow) => void;
}

export function AccountTable({ t, rows, loading, canModify, checked, onCheck, onAction }: Props) {
  const allOn = rows.length > 0 && rows.every((r) => checked[r.id]);
  const columns = canModify ? 11 : 9;
  return (
    <div class={`table-wrap${loading ? " is-loading" : ""}`} aria-busy={loading}>
      <table class="data accounts-table">
        <thead>
          <tr>
            {canModify && (
              <th class="col-check">
                <input
                  type="checkbox"
                  aria-label={t("accounts.table.selectAll")}
                  checked={allOn}
                  disabled={!rows.length}
                  onChange={(e) => onCheck(rows, (e.target as HTMLInputElement).checked)}
                />
              </th>
            )}
            <th>{t("accounts.fields.account")}</th>
            <th>{t("accounts.fields.nickName")}</th>
            <th>{t("accounts.fields.accountType")}</th>
            <th>{t("accounts.fields.superior")}</th>
            <th>{t("accounts.fields.contact")}</th>
            <th>{t("accounts.fields.phone")}</th>
            <th>{t("accounts.fields.email")}</th>
            <th>{t("accounts.fields.expiration")}</th>
            <th>{t("accounts.fields.createdAt")}</th>
            {canModify && <th class="col-actions">{t("ui.actions")}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-account={r.account} class={checked[r.id] ? "checked" : undefined}>
              {canModify && (
                <td class="col-check">
                  <input
                    type="checkbox"
                    aria-label={t("accounts.table.select", { account: r.account })}
                    checked={!!checked[r.id]}
                    onChange={(e) => onCheck([r], (e.target as HTMLInputElement).checked)}
                  />
                </td>
              )}
              <td class="strong">{r.account}</td>
              <td class="acc-wrap">{r.nickName}</td>
              <td>
                <TypeTag t={t} type={r.accountType} />
              </td>
              <td class="acc-wrap">{r.parentAccount || "—"}</td>
              <td class="acc-wrap">{r.contact || "—"}</td>
              <td>{r.phone || "—"}</td>
              <td>
                {r.email ? <span class="acc-email" title={r.email}>{r.email}</span> : "—"}
              </td>
              <td>{r.expiration ?? t("accounts.table.never")}</td>
              <td class="acc-created">{wrappable(formatDateTime(r.createdAt))}</td>
              {canModify && (
                <td class="col-actions">
                  <button
                    type="button"
                    class="link-btn"
                    data-action="edit"
                    onClick={() => onAction("edit", r)}
                  >
                    {t("accounts.actions.edit")}
                  </button>
                  <RowMenu
                    label="⋯"
                    title={t("accounts.actions.moreFor", { account: r.account })}
                    items={MORE.map((a) => ({
                      key: a,
                      label: t(`accounts.actions.${a}`),
                      danger: a === "delete",
                      onSelect: () =>
                        onAction(a, r),
                    }))}
                  />
                </td>
              )}
            </tr>
          ))}
          {!rows.length && (
            <tr class="empty-row">
              <td colSpan={columns}>
                <div class="empty">
                  <span class="empty-icon" aria-hidden="true">{loading ? "…" : "☰"}</span>
                  {loading ? t("ui.loading") : t("accounts.table.empty")}
                </div>
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {loading && rows.length > 0 && (
        <div class="table-loading" role="status">{t("ui.loading")}</div>
      )}
    </div>
  );
}

/** "2025-11-26 15:59" that may break between the date and the time, never inside either. */
function wrappable(dateTime: string) {
  const [date, time] = dateTime.split(" ");
  return time
    ? (
      <>
        <span class="nowrap">{date}</span> <span class="nowrap">{time}</span>
      </>
    )
    : date;
}
