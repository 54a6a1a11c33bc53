/** The /monitorObject side panel: search, status tabs, grouping and sorting, the list, refresh. */
import { useEffect, useMemo } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import type { CountKey } from "../../modules/monitor/objects.ts";
import type { SortRule, SortType } from "./fleet.ts";
import { VirtualList } from "./VirtualList.tsx";
import { MonitorTabs } from "./MonitorTabs.tsx";
import { STATUS_COLORS } from "./status.ts";
import { glyphOf } from "./icons.ts";
import { type ObjectsState, savePref } from "./objects_state.ts";
import { choose, loadObjects } from "./objects_map.ts";

/** "Not activated" (never heard from) has its own tab so stock does not inflate "Offline". */
const TABS: CountKey[] = ["all", "moving", "idling", "stopped", "offline", "notActivated"];
/** Spec §9: map refresh options include 5 seconds. 0 = live stream only. */
const REFRESH_OPTIONS = [5, 10, 30, 60, 0];
const ROW_HEIGHT = 58;

/** Vehicles per status tab (zeros until the first answer); re-read when the fleet changed. */
export function countsOf(s: ObjectsState): Record<CountKey, number> {
  s.version.value;
  const f = s.fleet.current;
  return f ? f.counts() : { all: 0, moving: 0, idling: 0, stopped: 0, offline: 0, notActivated: 0 };
}

export function ObjectSide({ s }: { s: ObjectsState }) {
  const { t } = s;
  return (
    <aside class="mon-side">
      <MonitorTabs active="object" t={t} />
      <div class="mon-side-tools">
        <input
          class="input"
          type="search"
          placeholder={t("monitor.list.search")}
          aria-label={t("monitor.list.search")}
          value={s.search.value}
          onInput={(e) => (s.search.value = (e.target as HTMLInputElement).value)}
        />
        <StatusTabs s={s} />
        <SortBar s={s} />
      </div>
      <ObjectRows s={s} />
      <LiveFooter s={s} />
    </aside>
  );
}

function StatusTabs({ s }: { s: ObjectsState }) {
  const counts = countsOf(s), tab = s.tab.value;
  return (
    <div class="mon-status-tabs" role="tablist">
      {TABS.map((k) => (
        <button
          key={k}
          type="button"
          role="tab"
          data-tab={k}
          aria-selected={tab === k}
          class={tab === k ? "active" : ""}
          onClick={() => (s.tab.value = k)}
        >
          <span>{s.t(`monitor.tabsStatus.${k}`)}</span>
          <b data-count={k}>{counts[k]}</b>
        </button>
      ))}
    </div>
  );
}

/** Group filter (when there are groups), sort key and direction (kept in this browser). */
function SortBar({ s }: { s: ObjectsState }) {
  const { t } = s, f = s.fleet.current, group = s.group.value, sortRule = s.sortRule.value;
  // Groups change only with a reload (a new answer), not with live positions.
  const groups = useMemo(() => f ? f.groups() : [], [f, f?.data]);
  return (
    <div class="mon-sort">
      {groups.length > 1 && (
        <select
          aria-label={t("monitor.list.group")}
          name="group"
          value={group === undefined ? "*" : group}
          onChange={(e) => {
            const v = (e.target as HTMLSelectElement).value;
            s.group.value = v === "*" ? undefined : v;
          }}
        >
          <option value="*">{t("monitor.list.allGroups")}</option>
          {groups.map(([name, n]) => (
            <option key={name} value={name}>
              {name || t("monitor.list.defaultGroup")} ({n})
            </option>
          ))}
        </select>
      )}
      <label>
        <span>{t("monitor.list.sortBy")}</span>
        <select
          value={s.sortType.value}
          aria-label={t("monitor.list.sortBy")}
          onChange={(e) => {
            const v = (e.target as HTMLSelectElement).value as SortType;
            s.sortType.value = v;
            savePref("sortType", v);
          }}
        >
          {(["name", "imei", "status", "speed", "time"] as const).map((k) => (
            <option key={k} value={k}>{t(`monitor.list.sort.${k}`)}</option>
          ))}
        </select>
      </label>
      <button
        type="button"
        class="icon-btn"
        title={t(`monitor.list.rule.${sortRule}`)}
        aria-label={t(`monitor.list.rule.${sortRule}`)}
        onClick={() => {
          const v: SortRule = sortRule === "asc" ? "desc" : "asc";
          s.sortRule.value = v;
          savePref("sortRule", v);
        }}
      >
        {sortRule === "asc" ? "↑" : "↓"}
      </button>
    </div>
  );
}

/** The filtered, sorted list (only the rows in view are drawn), or why it is empty. */
function ObjectRows({ s }: { s: ObjectsState }) {
  const { t } = s, f = s.fleet.current, version = s.version.value;
  const tab = s.tab.value, search = s.search.value, group = s.group.value;
  const sortType = s.sortType.value, sortRule = s.sortRule.value;
  const view = useMemo(
    () => f ? f.view({ tab, search, sortType, sortRule, group }) : [],
    [f, version, tab, search, sortType, sortRule, group],
  );
  if (s.loading.value) return <div class="mon-empty">{t("ui.loading")}</div>;
  if (s.loadError.value && !f) return <div class="mon-empty error">{s.loadError.value}</div>;
  if (view.length === 0) {
    return (
      <div class="mon-empty">
        {f?.size ? t("monitor.list.noMatch") : t("monitor.list.noDevices")}
      </div>
    );
  }
  return (
    <VirtualList
      items={view}
      rowHeight={ROW_HEIGHT}
      label={t("monitor.list.label")}
      render={(i) => <ObjectRow key={f!.data.imei[i]} s={s} i={i} />}
    />
  );
}

function ObjectRow({ s, i }: { s: ObjectsState; i: number }) {
  const { t, fmt } = s, f = s.fleet.current!, d = f.data, st = f.status(i), imei = d.imei[i];
  return (
    <div
      role="listitem"
      class={`mon-row ${imei === s.selected.value ? "selected" : ""}`}
      data-imei={imei}
      style={{ height: `${ROW_HEIGHT}px` }}
      onClick={() => choose(s, imei)}
    >
      <i class="mon-dot mon-badge" style={{ background: STATUS_COLORS[st] }} aria-hidden="true">
        <svg viewBox="0 0 24 24">
          <path d={glyphOf(d.appType[i])} />
        </svg>
      </i>
      <div class="mon-row-main">
        <div class="mon-row-name">{d.name[i]}</div>
        {/* Where it is, once known; the IMEI until then (and on hover). */}
        <RowSub imei={imei} address={s.book.get(imei, d.lat[i], d.lng[i])} />
      </div>
      <div class="mon-row-meta">
        <div>{st === "moving" ? fmt.speed(d.speed[i]) : t(`monitor.status.${st}`)}</div>
        <div class="muted">{fmt.time(d.gpsTime[i] ?? d.hbTime[i]).slice(5, 16)}</div>
      </div>
      <button
        type="button"
        class={`mon-star ${d.followed[i] ? "on" : ""}`}
        aria-label={t(d.followed[i] ? "monitor.list.unfollow" : "monitor.list.follow")}
        aria-pressed={d.followed[i]}
        onClick={(e) => {
          e.stopPropagation();
          toggleFollow(s, i);
        }}
      >
        ★
      </button>
    </div>
  );
}

/** Follow marks are the devices area's (per logged-in user); followed devices list first. */
async function toggleFollow(s: ObjectsState, i: number) {
  const d = s.fleet.current!.data, on = !d.followed[i];
  try {
    await api("/v3/new/newEquipment/follow", { imeis: [d.imei[i]], follow: on });
    d.followed[i] = on;
    s.version.value++;
  } catch (e) {
    toast((e as Error).message, "error");
  }
}

/** A list row's second line: the address when known, else the IMEI. */
function RowSub({ imei, address }: { imei: string; address: string }) {
  return address
    ? <div class="mon-row-sub" title={imei} data-row-address>{address}</div>
    : <div class="mon-row-sub mono">{imei}</div>;
}

/** Whether the live stream is up, and the full-reload interval (which it also runs). */
function LiveFooter({ s }: { s: ObjectsState }) {
  const { t } = s, live = s.live.value, refresh = s.refresh.value;
  // Periodic full reload catches devices that went offline without a message.
  useEffect(() => {
    if (!refresh) return;
    const timer = setInterval(() => loadObjects(s, false), refresh * 1000);
    return () => clearInterval(timer);
  }, [refresh]);
  return (
    <footer class="mon-side-foot">
      <span class={`mon-live ${live ? "on" : ""}`}>
        <i aria-hidden="true" />
        {live ? t("monitor.live.on") : t("monitor.live.off")}
      </span>
      <label>
        <span>{t("monitor.refresh.label")}</span>
        <select
          value={refresh}
          aria-label={t("monitor.refresh.label")}
          onChange={(e) => {
            const v = Number((e.target as HTMLSelectElement).value);
            s.refresh.value = v;
            savePref("refresh", v);
          }}
        >
          {REFRESH_OPTIONS.map((n) => (
            <option key={n} value={n}>
              {n ? t("monitor.refresh.seconds", { n }) : t("monitor.refresh.off")}
            </option>
          ))}
        </select>
      </label>
    </footer>
  );
}
