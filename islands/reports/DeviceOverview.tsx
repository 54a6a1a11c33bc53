import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import type { DeviceOverview as Data } from "../../modules/reports/model.ts";
import { type Bar, Donut, HBars, PALETTE } from "../../components/reports/charts.tsx";
import { Card, Kpi, OverviewStatus } from "../../components/reports/OverviewParts.tsx";

const STATUS_ORDER = [
  "moving",
  "idling",
  "stopped",
  "offline",
  "sleeping",
  "poweredOff",
  "inactive",
];
const STATUS_COLORS: Record<string, string> = {
  moving: "#10b981",
  idling: "#f59e0b",
  stopped: "var(--theme)",
  offline: "#94a3b8",
  sleeping: "#8b5cf6",
  poweredOff: "#ef4444",
  inactive: "#cbd5e1",
};

/** /deviceOverview: the devices of the caller's tree by status, activation, expiry, silence. */
function DeviceOverview({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<Data>("/v3/new/report/overview/device", {}).then(setData, (e) => setError(e.message));
  }, []);
  if (!data) return <OverviewStatus t={t} error={error} />;
  const count = (n: number) => t("reports.overview.devices", { count: n });
  const bars = (entries: [string, number][], label: (k: string) => string): Bar[] =>
    entries.map(([k, v]) => ({ key: k, label: label(k), value: v, text: String(v) }));
  const activation = Object.entries(data.activation).sort((a, b) => b[1] - a[1]);
  return (
    <div class="rp-overview" data-testid="device-overview">
      <div class="rp-kpis">
        <Kpi label={t("reports.overview.total")} value={data.total} />
        <Kpi label={t("reports.overview.online")} value={data.online} tone="ok" />
        <Kpi label={t("reports.overview.offline")} value={data.offline} tone="muted" />
        <Kpi label={t("reports.overview.inactive")} value={data.inactive} tone="warn" />
        <Kpi
          label={t("reports.overview.offline2to7")}
          value={data.offlineFor.days2to7}
          note={t("reports.overview.offline2to7Note")}
          tone="danger"
        />
      </div>
      <div class="rp-cards">
        <Card title={t("reports.overview.byStatus")}>
          <Donut
            caption={t("reports.overview.byStatus")}
            total={data.total}
            shares={STATUS_ORDER.map((k) => ({
              key: k,
              label: t(`monitor.status.${k}`, { defaultValue: k }),
              value: data.status[k] ?? 0,
              color: STATUS_COLORS[k],
            }))}
          />
        </Card>
        <Card title={t("reports.overview.byActivation")}>
          <HBars
            empty={t("reports.overview.none")}
            bars={bars(activation, (k) => t(`devices.activation.${k}`, { defaultValue: k }))}
          />
        </Card>
        <Card title={t("reports.overview.expiry")}>
          <HBars
            fixed
            empty={t("reports.overview.noExpiry")}
            color={PALETTE[1]}
            bars={bars(
              [
                ["within7", data.expiry.within7],
                ["within30", data.expiry.within30],
                ["within60", data.expiry.within60],
                ["expired", data.expiry.expired],
              ],
              (k) => t(`reports.overview.expiryWindows.${k}`),
            )}
          />
          <p class="field-hint">{count(data.total)}</p>
        </Card>
        <Card title={t("reports.overview.offlineFor")}>
          <HBars
            fixed
            empty={t("reports.overview.noOffline")}
            color="#94a3b8"
            bars={bars(
              [
                ["under2Days", data.offlineFor.under2Days],
                ["days2to7", data.offlineFor.days2to7],
                ["over7Days", data.offlineFor.over7Days],
              ],
              (k) => t(`reports.overview.silence.${k}`),
            )}
          />
          <p class="field-hint">
            <a href="/new/offline">{t("reports.overview.toOffline")}</a>
          </p>
        </Card>
      </div>
    </div>
  );
}

export default island("reports/DeviceOverview", DeviceOverview);
