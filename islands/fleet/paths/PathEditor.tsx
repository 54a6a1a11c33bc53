import { useEffect, useMemo, useRef, useState } from "react";
import { island } from "../../../lib/islands/island.tsx";
import { type Lang, translator } from "../../../lib/i18n/i18n.ts";
import { api, ApiError } from "../../../lib/client/api.ts";
import { toast, Toasts } from "../../../components/ui/Toast.tsx";
import { FenceDevicePicker } from "../../../components/geofences/DevicePicker.tsx";
import {
  PATH_LIMITS,
  type PlannedRoute,
  type RoutePoint,
} from "../../../modules/fleet/paths_model.ts";
import { createPathMap, type PathMap } from "../../../components/fleet/paths/path_map.ts";
import {
  PointList,
  type RuleFields,
  RuleForm,
} from "../../../components/fleet/paths/editor_parts.tsx";

interface Props {
  lang: Lang;
  /** The route to edit; none: a new route. */
  id?: string | null;
  /** ROUTING_URL is set: lines can follow the roads. */
  routing: boolean;
}

const DEFAULT_CENTER = { lat: 22.5431, lng: 114.0579 };
const BLANK: RuleFields = {
  name: "",
  offset: PATH_LIMITS.defaultOffset,
  minOffMinutes: 1,
  startTime: "00:00",
  endTime: "23:59",
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  snap: true,
};

/**
 * /addFleetPath: a route drawn on the map (start, via points, end; drag to move) with its rule
 * beside it: corridor offset, effective window and weekdays, minimum time off, bound devices.
 * No account tree on this page (spec §2): a route belongs to the caller's enterprise.
 */
function PathEditor({ lang, id = null, routing }: Props) {
  const t = useMemo(() => translator(lang), [lang]);
  const [fields, setFields] = useState<RuleFields>(BLANK);
  const [points, setPoints] = useState<RoutePoint[]>([]);
  const [line, setLine] = useState<RoutePoint[] | null>(null);
  const [imeis, setImeis] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const mapEl = useRef<HTMLDivElement>(null);
  const map = useRef<PathMap | null>(null);
  const set = (patch: Partial<RuleFields>) => setFields((f) => ({ ...f, ...patch }));
  // The road line belongs to the saved points only; any change shows straight legs again.
  const changePoints = (next: RoutePoint[]) => {
    setLine(null);
    setPoints(next);
  };

  useEffect(() => {
    if (!mapEl.current) return;
    map.current = createPathMap(mapEl.current, DEFAULT_CENTER, {
      onAdd: (p) =>
        setPoints((ps) => {
          if (ps.length >= PATH_LIMITS.maxPoints) {
            toast(t("errors.routePointsLimit", { max: PATH_LIMITS.maxPoints }), "error");
            return ps;
          }
          setLine(null);
          return [...ps, p];
        }),
      onMove: (i, p) =>
        setPoints((ps) => {
          setLine(null);
          return ps.map((q, k) => (k === i ? p : q));
        }),
    });
    openOn(id, map.current).then((loaded) => {
      if (!loaded) return;
      const { route, ...rest } = loaded;
      setFields({ ...rest, snap: route.lineKind === "road" });
      setPoints(route.points);
      setLine(route.line);
      setImeis(route.imeis);
    }).catch((e) => toast((e as Error).message, "error"));
    return () => map.current?.dispose();
  }, []);
  useEffect(() => map.current?.draw(points, line, fields.offset), [points, line, fields.offset]);

  const save = async () => {
    setSaving(true);
    try {
      const body = { ...fields, points, imeis, snap: routing ? fields.snap : false };
      await api(`/v3/new/fleet/route/${id ? "update" : "add"}`, id ? { id, ...body } : body);
      location.href = "/fleetPath?saved=1";
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "error");
      setSaving(false);
    }
  };

  return (
    <div class="fp-layout">
      <aside class="fp-side panel">
        <div class="fp-side-head">
          <a class="back" href="/fleetPath">← {t("fleetPaths.title")}</a>
          <h2>{t(id ? "fleetPaths.editTitle" : "fleetPaths.addTitle")}</h2>
        </div>
        <div class="fp-side-body">
          <RuleForm t={t} f={fields} set={set} routing={routing} />
          <PointList
            t={t}
            points={points}
            remove={(i) => changePoints(points.filter((_, k) => k !== i))}
          />
          <div class="field">
            <span class="field-label">{t("fleetPaths.vehicles")}</span>
            <FenceDevicePicker t={t} selected={imeis} onChange={setImeis} max={200} subtree />
          </div>
        </div>
        <div class="fp-side-foot">
          <button type="button" class="btn" onClick={() => changePoints([])}>
            {t("fleetPaths.clear")}
          </button>
          <button
            type="button"
            class="btn btn-primary"
            id="fp-save"
            disabled={saving || points.length < 2 || !fields.name.trim()}
            onClick={save}
          >
            {saving ? t("fleetPaths.saving") : t("fleetPaths.save")}
          </button>
        </div>
      </aside>
      <section class="fp-map-wrap">
        <div class="fp-map-hint">{t("fleetPaths.mapHint")}</div>
        <div ref={mapEl} class="fp-map" aria-label={t("fleetPaths.map")} data-testid="path-map" />
      </section>
      <Toasts />
    </div>
  );
}

/** Loads the route being edited and fits the map to it; a new route opens on the vehicles. */
async function openOn(id: string | null, map: PathMap) {
  if (!id) {
    const d = await api<{ lat: (number | null)[]; lng: (number | null)[] }>(
      "/v3/new/monitor/objects",
    ).catch(() => null);
    const seen = (d?.lat ?? []).flatMap((lat, i) =>
      lat !== null && d!.lng[i] !== null ? [{ lat, lng: d!.lng[i]! }] : []
    );
    if (seen.length) map.fit(seen);
    return null;
  }
  const found = await api<{ list: PlannedRoute[] }>("/v3/new/fleet/route/list", { id });
  const route = found.list[0];
  if (!route) return null;
  map.fit(route.line);
  return {
    route,
    name: route.name,
    offset: route.offset,
    minOffMinutes: route.minOffMinutes,
    startTime: route.startTime,
    endTime: route.endTime,
    weekdays: route.weekdays,
  };
}

export default island("fleet/paths/PathEditor", PathEditor);
