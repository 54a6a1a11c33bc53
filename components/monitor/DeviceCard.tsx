/**
 * The popup / side card of one device: name, status and how long it has been so, address,
 * speed, ACC, battery, signal, odometer, times, coordinates, and the driver when the fleet
 * area records one.
 */
import type { ReactNode } from "react";
import type { TFunction } from "i18next";
import type { DeviceStatus } from "../../modules/devices/model.ts";
import type { DeviceFacts } from "../../modules/monitor/objects.ts";
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
  acc?: boolean | null;
  /** Readings, odometer, address and driver (asked for the one device shown). */
  facts?: DeviceFacts | null;
  /** A fresher address than facts.address (the list's, as the vehicle moves). */
  address?: string;
}

type T = TFunction;

export function StatusPill({ status, label }: { status: DeviceStatus; label: string }) {
  return (
    <span class="mon-pill" style={{ "--c": STATUS_COLORS[status] }}>
      <i aria-hidden="true" />
      {label}
    </span>
  );
}

/** "2 d 3 h", "1 h 20 min", "5 min". */
export function spanText(ms: number, t: T): string {
  const m = Math.max(0, Math.floor(ms / 60_000));
  const d = Math.floor(m / 1440), h = Math.floor((m % 1440) / 60);
  if (d > 0) return t("monitor.card.dur.dh", { d, h });
  if (h > 0) return t("monitor.card.dur.hm", { h, m: m % 60 });
  return t("monitor.card.dur.m", { m });
}

/**
 * How long the device has been in its state: stopped or idling since it last moved (or since
 * its first fix), offline since its last message; never-heard-from stock says so. Nothing
 * for a moving device: its status chip says it all.
 */
export function sinceText(d: DeviceCardData, t: T, now = Date.now()): string {
  switch (d.status) {
    case "inactive":
      return t("monitor.card.neverReported");
    case "moving":
      return ""; // the status chip beside it already says "Moving"
    case "stopped":
    case "idling": {
      const from = d.facts?.lastMovingAt ?? d.gpsTime;
      if (from === null || from === undefined) return "";
      const key = d.status === "idling" ? "monitor.card.idlingFor" : "monitor.card.stoppedFor";
      return t(key, { time: spanText(now - from, t) });
    }
    default:
      return d.hbTime === null ? "" : t("monitor.card.offlineFor", {
        time: spanText(now - d.hbTime, t),
      });
  }
}

/** Four bars, filled up to the level (spec signal 0-4). */
function SignalBars({ level }: { level: number }) {
  return (
    <span class="mon-signal" aria-hidden="true">
      {[1, 2, 3, 4].map((n) => (
        <i key={n} class={n <= level ? "on" : ""} style={{ height: `${3 + n * 2}px` }} />
      ))}
    </span>
  );
}

export function DeviceCard(
  { d, fmt, t, onClose, children }: {
    d: DeviceCardData;
    fmt: Formatter;
    t: T;
    onClose?: () => void;
    children?: ReactNode;
  },
) {
  const f = d.facts;
  const dash = t("monitor.card.unknown");
  const address = d.address || f?.address || "";
  const since = sinceText(d, t);
  return (
    <div class="mon-card" data-imei={d.imei}>
      <header>
        <div>
          <strong class="mon-card-name">{d.name}</strong>
          <StatusPill status={d.status} label={t(`monitor.status.${d.status}`)} />
          {since && <span class="mon-card-since" data-since>{since}</span>}
        </div>
        {onClose && (
          <button type="button" class="icon-btn" aria-label={t("ui.close")} onClick={onClose}>
            ×
          </button>
        )}
      </header>
      {d.lat !== null && (
        <p class="mon-card-address" data-address title={t("monitor.card.address")}>
          {address || "…"}
        </p>
      )}
      <dl>
        <dt class="row">{t("monitor.fields.imei")}</dt>
        <dd class="mono wide">{d.imei}</dd>
        <dt>{t("monitor.fields.speed")}</dt>
        <dd>
          {fmt.speed(d.speed)}
          {d.lat !== null && <span class="muted">· {fmt.compass(d.course)}</span>}
        </dd>
        <dt>{t("monitor.card.acc")}</dt>
        <dd data-acc>
          {d.acc === true
            ? t("monitor.card.accOn")
            : d.acc === false
            ? t("monitor.card.accOff")
            : dash}
        </dd>
        <dt>{t("monitor.card.battery")}</dt>
        <dd data-battery>
          {f?.battery !== null && f?.battery !== undefined ? `${f.battery}%` : dash}
        </dd>
        <dt>{t("monitor.card.signal")}</dt>
        <dd data-signal>
          {f?.signal !== null && f?.signal !== undefined
            ? (
              <>
                <SignalBars level={f.signal} />
                {t("monitor.card.signalLevel", { n: f.signal })}
              </>
            )
            : dash}
        </dd>
        <dt>{t("monitor.card.odometer")}</dt>
        <dd data-odometer>
          {f?.odometerKm !== null && f?.odometerKm !== undefined
            ? fmt.distance(f.odometerKm)
            : dash}
        </dd>
        {f?.driver && (
          <>
            <dt class="row">{t("monitor.card.driver")}</dt>
            <dd data-driver class="wide">{f.driver}</dd>
          </>
        )}
        <dt class="row">{t("monitor.fields.gpsTime")}</dt>
        <dd class="wide">{fmt.time(d.gpsTime)}</dd>
        <dt class="row">{t("monitor.fields.hbTime")}</dt>
        <dd class="wide">{fmt.time(d.hbTime)}</dd>
        <dt class="row">{t("monitor.fields.coords")}</dt>
        <dd class="mono wide">
          {d.lat !== null && d.lng !== null ? fmt.coords(d.lat, d.lng) : t("monitor.noPosition")}
        </dd>
      </dl>
      {children && <footer>{children}</footer>}
    </div>
  );
}
