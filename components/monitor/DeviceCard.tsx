/** The popup / side card of one device: name, IMEI, status, speed, time, coordinates. */
import type { ComponentChildren } from "preact";
import type { DeviceStatus } from "../../modules/devices/model.ts";
import type { Formatter } from "./format.ts";
import { STATUS_COLORS } from "./status.ts";

export interface DeviceCardData {
  imei: string;
  name: string;
  status: DeviceStatus;
  speed: number;
  course: number;
  gpsTime: number | null;
  hbTime: number | null;
  lat: number | null;
  lng: number | null;
}

export function StatusPill({ status, label }: { status: DeviceStatus; label: string }) {
  return (
    <span class="mon-pill" style={{ "--c": STATUS_COLORS[status] }}>
      <i aria-hidden="true" />
      {label}
    </span>
  );
}

export function DeviceCard(
  { d, fmt, t, onClose, children }: {
    d: DeviceCardData;
    fmt: Formatter;
    t: (k: string) => string;
    onClose?: () => void;
    children?: ComponentChildren;
  },
) {
  return (
    <div class="mon-card" data-imei={d.imei}>
      <header>
        <div>
          <strong class="mon-card-name">{d.name}</strong>
          <StatusPill status={d.status} label={t(`monitor.status.${d.status}`)} />
        </div>
        {onClose && (
          <button type="button" class="icon-btn" aria-label={t("ui.close")} onClick={onClose}>
            ×
          </button>
        )}
      </header>
      <dl>
        <dt>{t("monitor.fields.imei")}</dt>
        <dd class="mono">{d.imei}</dd>
        <dt>{t("monitor.fields.speed")}</dt>
        <dd>
          {fmt.speed(d.speed)}
          {d.lat !== null && <span class="muted">· {fmt.compass(d.course)}</span>}
        </dd>
        <dt>{t("monitor.fields.gpsTime")}</dt>
        <dd>{fmt.time(d.gpsTime)}</dd>
        <dt>{t("monitor.fields.hbTime")}</dt>
        <dd>{fmt.time(d.hbTime)}</dd>
        <dt>{t("monitor.fields.coords")}</dt>
        <dd class="mono">
          {d.lat !== null && d.lng !== null ? fmt.coords(d.lat, d.lng) : t("monitor.noPosition")}
        </dd>
      </dl>
      {children && <footer>{children}</footer>}
    </div>
  );
}
