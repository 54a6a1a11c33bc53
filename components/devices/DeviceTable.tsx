import type { TFunction } from "i18next";
import { type DeviceRow, formatDate, formatTime } from "./types.ts";

interface Props {
  t: TFunction;
  rows: DeviceRow[];
  loading: boolean;
  checked: Record<string, DeviceRow>;
  onCheck: (rows: DeviceRow[], on: boolean) => void;
  onOpen: (row: DeviceRow) => void;
  onFollow: (row: DeviceRow) => void;
  /** Opens the send-command dialog for the row; absent when the user may not send commands. */
  onCommand?: (row: DeviceRow) => void;
  /** Model name to show: the user's alias when set. */
  modelName: (mcType: string) => string;
}

const STATUS_CLASS: Record<string, string> = {
  moving: "ok",
  idling: "warn",
  stopped: "info",
  offline: "off",
  sleeping: "off",
  poweredOff: "off",
  inactive: "muted",
};
const ACTIVATION_CLASS: Record<string, string> = {
  activated: "ok",
  expiring: "warn",
  expired: "bad",
  notActivated: "muted",
  awaitingPermission: "info",
};

/** The device list: one row per device with live status, activation state and expiries. */
export function DeviceTable(
  { t, rows, loading, checked, onCheck, onOpen, onFollow, onCommand, modelName }: Props,
) {
  const allOn = rows.length > 0 && rows.every((r) => checked[r.imei]);
  return (
    <div class={`table-wrap${loading ? " is-loading" : ""}`} aria-busy={loading}>
      <table class="data devices-table">
        <thead>
          <tr>
            <th class="col-check">
              <input
                type="checkbox"
                aria-label={t("devices.actions.selected", { count: rows.length })}
                checked={allOn}
                disabled={!rows.length}
                onChange={(e) => onCheck(rows, (e.target as HTMLInputElement).checked)}
              />
            </th>
            <th class="col-follow" aria-label={t("devices.col.follow")} />
            <th>{t("devices.col.deviceName")}</th>
            <th>{t("devices.col.imei")}</th>
            <th>{t("devices.col.mcType")}</th>
            <th>{t("devices.col.userAccount")}</th>
            <th>{t("devices.col.group")}</th>
            <th>{t("devices.col.status")}</th>
            <th>{t("devices.col.activation")}</th>
            <th>{t("devices.col.activationTime")}</th>
            <th>{t("devices.col.expiration")}</th>
            <th>{t("devices.col.userExpiration")}</th>
            <th>{t("devices.col.sim")}</th>
            <th class="col-actions">{t("devices.col.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.imei}
              data-imei={r.imei}
              class={`${checked[r.imei] ? "checked" : ""}${r.enabled ? "" : " disabled-row"}`}
            >
              <td class="col-check">
                <input
                  type="checkbox"
                  aria-label={r.imei}
                  checked={!!checked[r.imei]}
                  onChange={(e) => onCheck([r], (e.target as HTMLInputElement).checked)}
                />
              </td>
              <td class="col-follow">
                <button
                  type="button"
                  class={`star${r.followed ? " on" : ""}`}
                  aria-pressed={r.followed}
                  title={t(r.followed ? "devices.actions.unfollow" : "devices.actions.follow")}
                  aria-label={t(r.followed ? "devices.actions.unfollow" : "devices.actions.follow")}
                  onClick={() => onFollow(r)}
                >
                  {r.followed ? "★" : "☆"}
                </button>
              </td>
              <td class="dev-name">
                <button type="button" class="link-btn" onClick={() => onOpen(r)}>
                  {r.deviceName}
                </button>
                {!r.enabled && <span class="badge bad">{t("devices.disabled")}</span>}
                {!r.appBindable && (
                  <span class="badge muted" title={t("devices.appBindable.notAllowed")}>
                    {t("devices.appBindable.badge")}
                  </span>
                )}
              </td>
              <td class="mono">{r.imei}</td>
              <td>{modelName(r.mcType)}</td>
              <td>{r.userAccount}</td>
              <td>{r.groupName ?? t("devices.defaultGroup")}</td>
              <td>
                <span class={`dot-status ${STATUS_CLASS[r.status]}`}>
                  {t(`devices.status.${r.status}`)}
                </span>
              </td>
              <td>
                <span class={`pill ${ACTIVATION_CLASS[r.activation]}`}>
                  {t(`devices.activation.${r.activation}`)}
                </span>
              </td>
              <td>{formatTime(r.activationTime)}</td>
              <td class="col-expiration">
                {formatDate(r.expiration)}
                {r.autoRenew && <span class="auto-renew" title={t("devices.renew.autoOn")}>↻</span>}
              </td>
              <td>{formatDate(r.userExpiration)}</td>
              <td class="mono">{r.sim || "-"}</td>
              <td class="col-actions">
                <button type="button" class="link-btn" onClick={() => onOpen(r)}>
                  {t("devices.actions.details")}
                </button>
                {onCommand && (
                  <button type="button" class="link-btn" onClick={() => onCommand(r)}>
                    {t("devices.actions.command")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && rows.length === 0 && (
        <div class="empty">
          <span class="empty-icon" aria-hidden="true">▢</span>
          <h3>{t("devices.empty.title")}</h3>
          <p>{t("devices.empty.text")}</p>
        </div>
      )}
      {loading && rows.length === 0 && <div class="table-loading">{t("devices.loading")}</div>}
    </div>
  );
}
