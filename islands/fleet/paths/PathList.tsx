import { useEffect, useMemo, useState } from "react";
import { island } from "../../../lib/islands/island.tsx";
import { type Lang, translator } from "../../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../../components/ui/Toast.tsx";
import { Pagination } from "../../../components/ui/Pagination.tsx";
import { confirmDelete, LoadError, useListPage } from "../../../components/fleet/list_data.tsx";
import type { PlannedRoute } from "../../../modules/fleet/paths_model.ts";

interface Props {
  lang: Lang;
}

/** /fleetPath: the enterprise's planned routes, searchable, each opened in /addFleetPath. */
function PathList({ lang }: Props) {
  const t = useMemo(() => translator(lang), [lang]);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [keyword, setKeyword] = useState("");
  const [query, setQuery] = useState("");
  const { data, error, load } = useListPage<PlannedRoute>("/v3/new/fleet/route/list", {
    ...page,
    ...(query ? { keyword: query } : {}),
  }, [page.pageNum, page.pageSize, query]);
  useEffect(() => {
    if (new URLSearchParams(location.search).get("saved")) toast(t("fleetPaths.saved"));
  }, []);
  const remove = (r: PlannedRoute) =>
    confirmDelete(
      t("fleetPaths.confirmDelete", { name: r.name }),
      "/v3/new/fleet/route/delete",
      r.id,
      t("fleetPaths.deleted"),
      load,
    );
  if (error) return <LoadError message={error} />;
  return (
    <div class="fp-list">
      <div class="page-head">
        <h1>{t("fleetPaths.title")}</h1>
        <a class="btn btn-primary" href="/addFleetPath" id="fp-add">+ {t("fleetPaths.add")}</a>
      </div>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setPage({ ...page, pageNum: 1 });
          setQuery(keyword.trim());
        }}
      >
        <input
          class="input"
          type="search"
          value={keyword}
          maxLength={50}
          placeholder={t("fleetPaths.search")}
          aria-label={t("fleetPaths.search")}
          onInput={(e) => setKeyword((e.target as HTMLInputElement).value)}
        />
        <button class="btn" type="submit">{t("fleetPaths.query")}</button>
      </form>
      {data && data.list.length === 0 && (
        <div class="empty fp-empty">
          <p>{t(query ? "fleetPaths.noMatch" : "fleetPaths.empty")}</p>
        </div>
      )}
      {data && data.list.length > 0 && (
        <div class="fp-cards">
          {data.list.map((r) => <RouteCard key={r.id} t={t} r={r} remove={() => remove(r)} />)}
        </div>
      )}
      {data && data.total > page.pageSize && (
        <Pagination
          t={t}
          total={data.total}
          pageNum={page.pageNum}
          pageSize={page.pageSize}
          onChange={(pageNum: number, pageSize: number) => setPage({ pageNum, pageSize })}
        />
      )}
      <Toasts />
    </div>
  );
}

function RouteCard(
  { t, r, remove }: { t: ReturnType<typeof translator>; r: PlannedRoute; remove: () => void },
) {
  const days = r.weekdays.length === 7
    ? t("fleetPaths.everyDay")
    : r.weekdays.map((d) => t(`fleetPaths.day.${d}`)).join(" ");
  return (
    <article class="fp-card panel" data-testid="route-card">
      <header>
        <h3>{r.name}</h3>
        <span class={`fp-kind ${r.lineKind}`}>{t(`fleetPaths.lineKind.${r.lineKind}`)}</span>
      </header>
      <RouteSketch r={r} />
      <dl>
        <dt>{t("fleetPaths.lengthLabel")}</dt>
        <dd>{(r.lengthM / 1000).toFixed(1)} km</dd>
        <dt>{t("fleetPaths.offset")}</dt>
        <dd>{r.offset} m</dd>
        <dt>{t("fleetPaths.effective")}</dt>
        <dd>{days} · {r.startTime}–{r.endTime}</dd>
        <dt>{t("fleetPaths.vehicles")}</dt>
        <dd>{t("fleetPaths.vehicleCount", { count: r.imeis.length })}</dd>
        <dt>{t("fleetPaths.points")}</dt>
        <dd>{t("fleetPaths.pointCount", { count: r.points.length })}</dd>
      </dl>
      <footer>
        <a class="btn" href={`/addFleetPath?id=${encodeURIComponent(r.id)}`}>
          {t("fleetPaths.edit")}
        </a>
        <button type="button" class="btn btn-danger" onClick={remove}>
          {t("fleetPaths.delete")}
        </button>
      </footer>
    </article>
  );
}

/** The route's shape at a glance: its line scaled into a small box (no map tiles needed). */
function RouteSketch({ r }: { r: PlannedRoute }) {
  const line = r.line.length > 1 ? r.line : r.points;
  const lats = line.map((p) => p.lat), lngs = line.map((p) => p.lng);
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const [minLng, maxLng] = [Math.min(...lngs), Math.max(...lngs)];
  const k = Math.cos(((minLat + maxLat) / 2) * Math.PI / 180);
  const span = Math.max((maxLng - minLng) * k, maxLat - minLat, 1e-6);
  const W = 280, H = 90, pad = 10;
  const s = Math.min((W - 2 * pad) / span, (H - 2 * pad) / span);
  const x = (lng: number) =>
    pad + (lng - minLng) * k * s + (W - 2 * pad - (maxLng - minLng) * k * s) / 2;
  const y = (lat: number) =>
    H - pad - (lat - minLat) * s - (H - 2 * pad - (maxLat - minLat) * s) / 2;
  const d = line.map((p, i) => `${i ? "L" : "M"}${x(p.lng).toFixed(1)},${y(p.lat).toFixed(1)}`)
    .join("");
  const a = r.points[0], b = r.points[r.points.length - 1];
  return (
    <svg class="fp-sketch" viewBox={`0 0 ${W} ${H}`} aria-hidden="true">
      <path d={d} class="fp-sketch-line" />
      <circle cx={x(a.lng)} cy={y(a.lat)} r="5" class="fp-sketch-start" />
      <circle cx={x(b.lng)} cy={y(b.lat)} r="5" class="fp-sketch-end" />
    </svg>
  );
}

export default island("fleet/paths/PathList", PathList);
