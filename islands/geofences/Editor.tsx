import { useEffect, useRef, useState } from "preact/hooks";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import { PagerFor, usePagedSearch } from "../../components/ui/Pagination.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { createFenceMap, type FenceMap, type VehicleView } from "../../components/geofences/map.ts";
import { PlaceSearch } from "../../components/geofences/PlaceSearch.tsx";
import type { PlaceHit } from "../../components/geofences/places.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { ZoneForm, type ZoneRow } from "../../components/geofences/ZoneForm.tsx";
import { GroupManager } from "../../components/geofences/GroupManager.tsx";
import { ImportDialog } from "../../components/geofences/ImportDialog.tsx";
import { ReshapeBar } from "../../components/geofences/ReshapeBar.tsx";
import type { Shape } from "../../modules/geofences/geometry.ts";
import { TabButtons } from "../../components/ui/TabButtons.tsx";

type Kind = "fence" | "landmark" | "blackCar";
export interface Group {
  id: string;
  name: string;
  isDefault: boolean;
  top: boolean;
  count: number;
}

const KINDS: Kind[] = ["fence", "landmark", "blackCar"];
/** Spec §9 default map centre: where the map opens for an account without positioned vehicles. */
const DEFAULT_CENTER = { lat: 29.06, lng: 106.16 };
/** Vehicle markers are refreshed this often (the editor is not a live monitor). */
const VEHICLE_REFRESH_MS = 60_000;

/** The vehicles of the caller's subtree that have a position, from the monitor's payload. */
async function loadVehicles(): Promise<VehicleView[]> {
  const d = await api<ObjectsPayload>("/v3/new/monitor/objects");
  const out: VehicleView[] = [];
  d.imei.forEach((imei, i) => {
    const lat = d.lat[i], lng = d.lng[i];
    if (lat === null || lng === null) return;
    out.push({
      imei,
      name: d.name[i],
      lat,
      lng,
      status: d.status[i],
      appType: d.appType[i],
      course: d.course[i],
    });
  });
  return out;
}

interface Props {
  lang: Lang;
  isAdmin: boolean;
  /** The geocoder's forward-search route when the server has one (place search). */
  geocoderPath?: string | null;
}

function Editor({ lang, isAdmin, geocoderPath = null }: Props) {
  const t = translator(lang);
  const mapEl = useRef<HTMLDivElement>(null);
  const map = useRef<FenceMap | null>(null);
  const [kind, setKind] = useState<Kind>("fence");
  const [groups, setGroups] = useState<Group[]>([]);
  const [groupId, setGroupId] = useState("");
  const [keyword, setKeyword] = useState("");
  const { page, setPage, searches, search } = usePagedSearch();
  const [data, setData] = useState<{ total: number; limit: number; list: ZoneRow[] } | null>(null);
  const [layer, setLayer] = useState<ZoneRow[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<Partial<ZoneRow> | null>(null);
  const [drawing, setDrawing] = useState<"circle" | "polygon" | null>(null);
  /** A zone whose shape is being edited on the map (with the shape as it is now). */
  const [reshaping, setReshaping] = useState<ZoneRow | null>(null);
  const [dialog, setDialog] = useState<"groups" | "import" | null>(null);
  const [confirm, setConfirm] = useState<ZoneRow | null>(null);
  const [loading, setLoading] = useState(true);
  /** Vehicles on the map (null until the first answer). */
  const [vehicles, setVehicles] = useState<VehicleView[] | null>(null);
  const firstVehicles = useRef<Promise<VehicleView[]> | null>(null);

  const fitted = useRef<Kind | null>(null);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");

  const loadGroups = () =>
    api<Group[]>("/v3/new/geofence/group/list", {}).then(setGroups).catch(fail);
  const load = async () => {
    setLoading(true);
    try {
      const [list, all] = await Promise.all([
        api<{ total: number; limit: number; list: ZoneRow[] }>("/v3/new/geofence/list", {
          kind,
          ...(groupId ? { groupId } : {}),
          ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
          ...page,
        }),
        api<ZoneRow[]>("/v3/new/geofence/layer", { kind }),
      ]);
      setData(list);
      setLayer(all);
      // The page opens on the user's vehicles (else its zones, else the spec's centre); a tab
      // opened later shows its zones; later saves keep the operator's view.
      if (fitted.current !== kind) {
        const opening = fitted.current === null;
        fitted.current = kind;
        const onVehicles = opening && (await firstVehicles.current)?.length &&
          map.current?.fitVehicles();
        if (!onVehicles && all.length) map.current?.focus(all[0]);
      }
    } catch (e) {
      fail(e);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (!mapEl.current) return;
    const m = createFenceMap(mapEl.current, DEFAULT_CENTER);
    m.onSelect((id) => setSelected(id));
    map.current = m;
    // For e2e tests: the map behind the page.
    (globalThis as Record<string, unknown>).__tpFenceMap = m;
    loadGroups();
    const showVehicles = () =>
      loadVehicles().then((list) => {
        m.setVehicles(list);
        setVehicles(list);
        return list;
      }, () => [] as VehicleView[]);
    firstVehicles.current = showVehicles();
    const timer = setInterval(showVehicles, VEHICLE_REFRESH_MS);
    return () => {
      clearInterval(timer);
      m.dispose();
    };
  }, []);
  useEffect(() => {
    load();
  }, [kind, groupId, page.pageNum, page.pageSize, searches]);
  useEffect(() => {
    // The zone being reshaped is drawn by the edit layer only.
    const shown = reshaping ? layer.filter((z) => z.id !== reshaping.id) : layer;
    map.current?.setZones(shown, selected);
  }, [layer, selected, reshaping?.id]);
  const startDraw = (shape: "circle" | "polygon") => {
    setDrawing(shape);
    map.current?.draw(shape, (s: Shape) => {
      setDrawing(null);
      setEditing({ kind, shape: s, color: "#3b7aff", groupId: groupId || undefined });
    });
  };
  const cancelDraw = () => {
    map.current?.cancelDraw();
    setDrawing(null);
  };
  const reshape = (z: ZoneRow) => {
    setReshaping(z);
    setSelected(z.id);
    map.current?.focus(z);
    map.current?.editShape(z, (shape) => setReshaping((r) => r && { ...r, shape }));
  };
  const redraw = (shape: "circle" | "polygon") => {
    const z = reshaping!;
    setDrawing(shape);
    map.current?.draw(shape, (s: Shape) => {
      setDrawing(null);
      reshape({ ...z, shape: s });
    });
  };
  const endReshape = (save: boolean) => {
    map.current?.stopEdit();
    map.current?.cancelDraw();
    setDrawing(null);
    if (save && reshaping) setEditing(reshaping);
    setReshaping(null);
  };

  const remove = async (z: ZoneRow) => {
    try {
      await api("/v3/new/geofence/delete", { id: z.id });
      toast(t("geofences.deleted"));
      setConfirm(null);
      load();
      loadGroups();
    } catch (e) {
      fail(e);
    }
  };

  /** Every zone of the account, for the place search (landmarks, fences, black-car). */
  const allZones = async () =>
    (await Promise.all(KINDS.map((k) => api<ZoneRow[]>("/v3/new/geofence/layer", { kind: k }))))
      .flat();
  const pickPlace = (hit: PlaceHit) => {
    if (!hit.zone) return map.current?.showPlace(hit.at);
    map.current?.focus(hit.zone);
    if (hit.zone.kind === kind) setSelected(hit.zone.id);
  };

  const full = data ? data.total >= data.limit : false;
  const groupName = (g: Group) => (g.isDefault ? t("geofences.groups.default") : g.name);
  return (
    <div class="gf-layout">
      <aside class="gf-side panel">
        <div class="gf-tabs" role="tablist">
          <TabButtons
            tabs={KINDS}
            active={kind}
            onSelect={(k) => {
              setKind(k);
              setPage({ ...page, pageNum: 1 });
              setSelected(null);
            }}
            label={(k) => t(`geofences.kinds.${k}`)}
          />
        </div>
        <div class="gf-tools">
          <select
            class="input"
            value={groupId}
            aria-label={t("geofences.fields.group")}
            onChange={(e) => {
              setGroupId((e.target as HTMLSelectElement).value);
              setPage({ ...page, pageNum: 1 });
            }}
          >
            <option value="">{t("geofences.groups.all")}</option>
            {groups.map((g) => <option key={g.id} value={g.id}>{groupName(g)} ({g.count})</option>)}
          </select>
          <button type="button" class="btn" onClick={() => setDialog("groups")}>
            {t("geofences.groups.manage")}
          </button>
        </div>
        <form
          class="gf-tools"
          onSubmit={(e) => {
            e.preventDefault();
            search();
          }}
        >
          <input
            class="input"
            type="search"
            value={keyword}
            maxLength={50}
            placeholder={t("geofences.search")}
            aria-label={t("geofences.search")}
            onInput={(e) => setKeyword((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="btn">{t("geofences.searchButton")}</button>
        </form>
        <div class="gf-count muted">
          {data && t("geofences.count", { n: data.total, max: data.limit })}
        </div>
        <ul class="gf-list" aria-busy={loading}>
          {loading && !data && <li class="table-loading">{t("ui.loading")}</li>}
          {data && !data.list.length && (
            <li class="empty">
              <div>{t(`geofences.empty.${kind}`)}</div>
              <div class="muted">{t("geofences.emptyHint")}</div>
            </li>
          )}
          {data?.list.map((z) => (
            <li
              key={z.id}
              class={`gf-item${z.id === selected ? " selected" : ""}`}
              onClick={() => {
                setSelected(z.id);
                map.current?.focus(z);
              }}
            >
              <span class="color-dot" style={{ background: z.color }} />
              <div class="gf-item-main">
                <div class="gf-item-name">{z.name}</div>
                <div class="gf-item-sub muted">
                  {z.shape.kind === "circle"
                    ? t("geofences.circleInfo", { radius: z.shape.radius })
                    : t("geofences.polygonInfo", { n: z.shape.points.length - 1 })}
                  {z.kind === "fence" && (z.enterAlert || z.exitAlert) && (
                    <span class="badge">
                      {[
                        z.enterAlert && t("geofences.fields.enterAlert"),
                        z.exitAlert && t("geofences.fields.exitAlert"),
                      ]
                        .filter(Boolean).join(" · ")}
                    </span>
                  )}
                  {z.review && (
                    <span class={`badge review-${z.review}`}>
                      {t(`geofences.review.${z.review}`)}
                    </span>
                  )}
                </div>
              </div>
              <div class="gf-item-actions">
                {!(z.kind === "blackCar" && z.review === "passed") && (
                  <>
                    <ItemAction label={t("ui.edit")} onClick={() => setEditing(z)} />
                    <ItemAction
                      label={t("geofences.reshape.shapeLink")}
                      class="gf-shape-link"
                      disabled={!!drawing || !!reshaping}
                      onClick={() => reshape(z)}
                    />
                  </>
                )}
                <ItemAction label={t("ui.delete")} class="danger" onClick={() => setConfirm(z)} />
              </div>
            </li>
          ))}
        </ul>
        <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      </aside>
      <section class="gf-map-wrap">
        <PlaceSearch
          t={t}
          loadZones={allZones}
          geocoderPath={geocoderPath}
          onPick={pickPlace}
        />
        <div class="gf-map-tools">
          {reshaping
            ? (
              <ReshapeBar
                t={t}
                zone={reshaping}
                drawing={drawing}
                onRedraw={redraw}
                onCancel={() => endReshape(false)}
                onDone={() => endReshape(true)}
              />
            )
            : drawing
            ? (
              <>
                <span class="gf-hint">{t(`geofences.drawHint.${drawing}`)}</span>
                <button type="button" class="btn" onClick={cancelDraw}>{t("ui.cancel")}</button>
              </>
            )
            : (
              <>
                <button
                  type="button"
                  id="gf-draw-circle"
                  class="btn btn-primary"
                  disabled={full}
                  title={full ? t("geofences.full") : undefined}
                  onClick={() => startDraw("circle")}
                >
                  ◯ {t("geofences.drawCircle")}
                </button>
                <button
                  type="button"
                  id="gf-draw-polygon"
                  class="btn btn-primary"
                  disabled={full}
                  title={full ? t("geofences.full") : undefined}
                  onClick={() => startDraw("polygon")}
                >
                  ⬠ {t("geofences.drawPolygon")}
                </button>
                <button type="button" class="btn" onClick={() => setDialog("import")}>
                  {t("geofences.import.button")}
                </button>
                <button
                  type="button"
                  id="gf-vehicles"
                  class="btn"
                  disabled={!vehicles?.length}
                  title={vehicles?.length
                    ? t("geofences.vehicles.showHint")
                    : t("geofences.vehicles.none")}
                  aria-label={vehicles?.length
                    ? t("geofences.vehicles.count", { count: vehicles.length })
                    : t("geofences.vehicles.none")}
                  onClick={() => map.current?.fitVehicles()}
                >
                  {t("geofences.vehicles.show")}
                  {vehicles?.length ? <span class="badge">{vehicles.length}</span> : null}
                </button>
              </>
            )}
        </div>
        <div ref={mapEl} class="gf-map" aria-label={t("geofences.map")} />
      </section>
      {editing && (
        <ZoneForm
          t={t}
          zone={editing}
          kind={kind}
          groups={groups}
          onClose={() => setEditing(null)}
          onSaved={(z) => {
            setEditing(null);
            setSelected(z.id);
            toast(t("geofences.saved"));
            load();
            loadGroups();
          }}
        />
      )}
      {dialog === "groups" && (
        <GroupManager
          t={t}
          groups={groups}
          onChanged={loadGroups}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "import" && (
        <ImportDialog
          t={t}
          kind={kind}
          groups={groups}
          onClose={() => setDialog(null)}
          onDone={() => {
            load();
            loadGroups();
          }}
        />
      )}
      {confirm && (
        <Modal
          title={t("geofences.deleteTitle")}
          closeLabel={t("ui.close")}
          onClose={() => setConfirm(null)}
          footer={
            <>
              <button type="button" class="btn" onClick={() => setConfirm(null)}>
                {t("ui.cancel")}
              </button>
              <button type="button" class="btn btn-danger" onClick={() => remove(confirm)}>
                {t("ui.delete")}
              </button>
            </>
          }
        >
          <p>{t("geofences.deleteConfirm", { name: confirm.name })}</p>
        </Modal>
      )}
      {isAdmin && kind === "blackCar" && selected && (
        <ReviewBar
          t={t}
          id={selected}
          onDone={load}
        />
      )}
      <Toasts />
    </div>
  );
}

/** A link button in a zone row; it does not also select the row. */
function ItemAction(
  p: { label: string; class?: string; disabled?: boolean; onClick: () => void },
) {
  return (
    <button
      type="button"
      class={`link-btn${p.class ? ` ${p.class}` : ""}`}
      disabled={p.disabled}
      onClick={(e) => {
        e.stopPropagation();
        p.onClick();
      }}
    >
      {p.label}
    </button>
  );
}

/** The administrator passes or rejects the selected black-car address. */
function ReviewBar(
  { t, id, onDone }: { t: ReturnType<typeof translator>; id: string; onDone: () => void },
) {
  const review = async (r: "passed" | "rejected") => {
    try {
      await api("/v3/new/geofence/review", { id, review: r });
      toast(t(`geofences.review.${r}`));
      onDone();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
    }
  };
  return (
    <div class="gf-review">
      <span>{t("geofences.reviewPrompt")}</span>
      <button type="button" class="btn btn-primary" onClick={() => review("passed")}>
        {t("geofences.review.pass")}
      </button>
      <button type="button" class="btn btn-danger" onClick={() => review("rejected")}>
        {t("geofences.review.reject")}
      </button>
    </div>
  );
}

export default island("geofences/Editor", Editor);
