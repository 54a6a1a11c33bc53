import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { FleetTable } from "../../components/fleet/FleetList.tsx";
import { download } from "../../components/devices/transfer_io.ts";
import type { DriverRow, Page, SwipeRow, VehicleRow } from "../../modules/fleet/model.ts";
import { formatTime } from "../../modules/monitor/time.ts";

/** Today plus `offset` days, as a date in the user's zone. */
const day = (offset: number, zone: string) =>
  formatTime(Date.now() + offset * 86_400_000, zone, "YYYY-MM-DD");

interface Filter {
  startTime: string;
  endTime: string;
  driverId?: string;
  vehicleId?: string;
  unknownOnly?: boolean;
}

/** /fleetRfid: who swiped in and out where, by driver, vehicle and time; xlsx export. */
function SwipeList({ lang, timeZone }: { lang: Lang; timeZone: string }) {
  const t = useMemo(() => translator(lang), [lang]);
  const [draft, setDraft] = useState<Filter>({
    startTime: day(-6, timeZone),
    endTime: day(0, timeZone),
  });
  const [filter, setFilter] = useState<Filter>(draft);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<Page<SwipeRow> | null>(null);
  const [drivers, setDrivers] = useState<DriverRow[]>([]);
  const [vehicles, setVehicles] = useState<VehicleRow[]>([]);
  const fail = (e: unknown) => toast(e instanceof ApiError ? e.message : String(e), "error");
  useEffect(() => {
    api<Page<DriverRow>>("/v3/new/fleet/driver/list", { pageNum: 1, pageSize: 100 })
      .then((p) => setDrivers(p.list), () => {});
    api<Page<VehicleRow>>("/v3/new/fleet/vehicle/list", { pageNum: 1, pageSize: 100 })
      .then((p) => setVehicles(p.list), () => {});
  }, []);
  useEffect(() => {
    api<Page<SwipeRow>>("/v3/new/fleet/rfid/list", { ...filter, ...page }).then(setData, fail);
  }, [filter, page]);
  const pick = (k: keyof Filter) => (e: Event) =>
    setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value || undefined });
  return (
    <div class="fl-manager">
      <div class="page-head">
        <h1>{t("fleet.rfid.title")}</h1>
        <button
          type="button"
          class="btn"
          onClick={() => download("/v3/new/fleet/rfid/export", filter).catch(fail)}
        >
          {t("fleet.common.export")}
        </button>
      </div>
      <form
        class="toolbar fl-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPage({ ...page, pageNum: 1 });
          setFilter(draft);
        }}
      >
        <label>
          {t("fleet.rfid.from")}
          <input class="input" type="date" value={draft.startTime} onInput={pick("startTime")} />
        </label>
        <label>
          {t("fleet.rfid.to")}
          <input class="input" type="date" value={draft.endTime} onInput={pick("endTime")} />
        </label>
        <select
          class="input"
          aria-label={t("fleet.rfid.driverName")}
          value={draft.driverId ?? ""}
          onChange={pick("driverId")}
        >
          <option value="">{t("fleet.rfid.allDrivers")}</option>
          {drivers.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
        </select>
        <select
          class="input"
          aria-label={t("fleet.rfid.plate")}
          value={draft.vehicleId ?? ""}
          onChange={pick("vehicleId")}
        >
          <option value="">{t("fleet.rfid.allVehicles")}</option>
          {vehicles.map((v) => <option key={v.id} value={v.id}>{v.plate}</option>)}
        </select>
        <label class="fl-check">
          <input
            type="checkbox"
            checked={!!draft.unknownOnly}
            onChange={(e) =>
              setDraft({
                ...draft,
                unknownOnly: (e.target as HTMLInputElement).checked || undefined,
              })}
          />
          {t("fleet.rfid.unknownOnly")}
        </label>
        <button class="btn btn-primary" type="submit">{t("fleet.common.query")}</button>
      </form>
      <FleetTable
        t={t}
        empty={data?.total === 0}
        filtered
        actions={false}
        headers={[
          t("fleet.rfid.time"),
          t("fleet.rfid.type"),
          t("fleet.rfid.driverName"),
          t("fleet.rfid.cardNo"),
          t("fleet.rfid.plate"),
          t("fleet.rfid.place"),
        ]}
      >
        {data?.list.map((s) => (
          <tr key={s.id} data-testid="swipe-row" class={s.unknown ? "fl-unknown" : ""}>
            <td>{formatTime(Date.parse(s.time), timeZone)}</td>
            <td>
              <span class={`fl-swipe ${s.type}`}>{t(`fleet.rfid.types.${s.type}`)}</span>
            </td>
            <td>
              {s.unknown
                ? <span class="badge bad">{t("fleet.rfid.unknownCard")}</span>
                : s.driverName || "—"}
              {s.reportedName && s.reportedName !== s.driverName && (
                <small>({s.reportedName})</small>
              )}
            </td>
            <td>{s.cardNo || "—"}</td>
            <td>{s.plate || s.imei}</td>
            <td>
              {s.lat === null || s.lng === null ? "—" : `${s.lat.toFixed(5)}, ${s.lng.toFixed(5)}`}
            </td>
          </tr>
        ))}
      </FleetTable>
      {data && <PagerFor t={t} total={data.total} page={page} setPage={setPage} />}
      <Toasts />
    </div>
  );
}

export default island("fleet/SwipeList", SwipeList);
