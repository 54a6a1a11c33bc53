import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api, ApiError } from "../../lib/client/api.ts";
import { Donut, HBars, PALETTE } from "../../components/reports/charts.tsx";
import { type FleetBoard as Board, VEHICLE_STATUSES } from "../../modules/fleet/model.ts";

type Translate = ReturnType<typeof translator>;

/** /fleetIndex: the enterprise's fleet at a glance, as charts and tiles. */
function FleetBoard({ lang }: { lang: Lang }) {
  const t = useMemo(() => translator(lang), [lang]);
  const [board, setBoard] = useState<Board | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<Board>("/v3/new/fleet/board", {}).then(
      setBoard,
      (e) => setError(e instanceof ApiError ? e.message : String(e)),
    );
  }, []);
  if (error) return <div class="empty" role="alert">{error}</div>;
  if (!board) return <div class="empty">{t("fleet.common.loading")}</div>;
  const soon = board.expiring.filter((e) => e.state === "expiringSoon").length;
  const expired = board.expiring.length - soon;
  const hours = (s: number) =>
    t("fleet.board.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return (
    <div class="fl-board" data-testid="fleet-board">
      <h1 class="fl-title">{t("fleet.board.title")}</h1>
      <div class="fl-tiles">
        <Tile label={t("fleet.board.vehicles")} value={board.vehicles} href="/fleetVehicle" />
        <Tile label={t("fleet.board.drivers")} value={board.drivers} href="/fleetDiver" />
        <Tile label={t("fleet.board.onDuty")} value={board.onDuty.length} href="/fleetRfid" />
        <Tile
          label={t("fleet.board.expiringSoon")}
          value={soon}
          tone={soon ? "warn" : undefined}
        />
        <Tile label={t("fleet.board.expired")} value={expired} tone={expired ? "bad" : undefined} />
        <Tile
          label={t("fleet.board.reminders")}
          value={board.reminders
            ? `${board.reminders.due} / ${board.reminders.overdue}`
            : t("fleet.common.none")}
          sub={board.reminders
            ? `${t("fleet.board.due")} / ${t("fleet.board.overdue")}`
            : t("fleet.board.notAvailable")}
        />
        <Tile
          label={t("fleet.board.deviations")}
          value={board.deviationsToday ?? t("fleet.common.none")}
          sub={board.deviationsToday === null ? t("fleet.board.notAvailable") : undefined}
        />
      </div>
      <div class="fl-charts">
        <section class="panel fl-chart">
          <h2>{t("fleet.board.byStatus")}</h2>
          {board.vehicles
            ? (
              <Donut
                caption={t("fleet.board.byStatus")}
                total={board.vehicles}
                shares={VEHICLE_STATUSES.map((s, i) => ({
                  key: s,
                  label: t(`fleet.vehicle.statuses.${s}`),
                  value: board.byStatus[s],
                  color: PALETTE[i],
                }))}
              />
            )
            : <p class="rp-chart-empty">{t("fleet.board.noVehicles")}</p>}
        </section>
        <section class="panel fl-chart">
          <h2>{t("fleet.board.expiring")}</h2>
          <Donut
            caption={t("fleet.board.expiring")}
            total={board.expiring.length}
            shares={[
              { key: "soon", label: t("fleet.board.expiringSoon"), value: soon, color: "#f59e0b" },
              { key: "expired", label: t("fleet.board.expired"), value: expired, color: "#ef4444" },
            ]}
          />
          <ExpiryList t={t} board={board} />
        </section>
        <section class="panel fl-chart">
          <h2>{t("fleet.board.todayDistance")}</h2>
          <HBars
            empty={t("fleet.board.noDistance")}
            bars={board.today.slice(0, 10).map((v) => ({
              key: v.vehicleId,
              label: v.plate,
              value: v.distanceKm,
              text: `${v.distanceKm.toFixed(1)} km`,
            }))}
          />
        </section>
        <section class="panel fl-chart">
          <h2>{t("fleet.board.todayDriving")}</h2>
          <HBars
            color="#10b981"
            empty={t("fleet.board.noDistance")}
            bars={[...board.today].sort((a, b) => b.drivingSeconds - a.drivingSeconds)
              .slice(0, 10).map((v) => ({
                key: v.vehicleId,
                label: v.plate,
                value: v.drivingSeconds,
                text: hours(v.drivingSeconds),
              }))}
          />
        </section>
        <section class="panel fl-chart fl-duty">
          <h2>{t("fleet.board.onDuty")}</h2>
          {board.onDuty.length
            ? (
              <ul class="fl-chips">
                {board.onDuty.map((d) => (
                  <li key={d.vehicleId}>
                    <b>{d.driverName || t("fleet.rfid.unknownCard")}</b>
                    <span>{d.plate}</span>
                  </li>
                ))}
              </ul>
            )
            : <p class="rp-chart-empty">{t("fleet.board.noDuty")}</p>}
        </section>
      </div>
    </div>
  );
}

function Tile({ label, value, sub, href, tone }: {
  label: string;
  value: string | number;
  sub?: string;
  href?: string;
  tone?: "warn" | "bad";
}) {
  const body = (
    <>
      <span class="fl-tile-label">{label}</span>
      <b class="fl-tile-value">{value}</b>
      {sub && <span class="fl-tile-sub">{sub}</span>}
    </>
  );
  const cls = `panel fl-tile${tone ? ` ${tone}` : ""}`;
  return href ? <a class={cls} href={href}>{body}</a> : <div class={cls}>{body}</div>;
}

/** The next dates to act on (at most six), nearest first. */
function ExpiryList({ t, board }: { t: Translate; board: Board }) {
  if (!board.expiring.length) return <p class="rp-chart-empty">{t("fleet.board.noExpiry")}</p>;
  return (
    <ul class="fl-expiry">
      {board.expiring.slice(0, 6).map((e) => (
        <li key={`${e.kind}-${e.id}`}>
          <span class={`badge ${e.state === "expired" ? "bad" : "warn"}`}>
            {t(`fleet.board.${e.kind}`)}
          </span>
          <span class="fl-expiry-name">{e.name}</span>
          <time>{e.date}</time>
        </li>
      ))}
    </ul>
  );
}

export default island("fleet/FleetBoard", FleetBoard);
