/**
 * State of one geofence editor page (islands/geofences/Editor.tsx), shared by its parts as
 * signals and created per island instance (never module-global), with what the page does:
 * loading the list and the map layer, drawing, reshaping, deleting.
 */
import { useEffect } from "react";
import { type Signal, signal } from "@preact/signals";
import type { TFunction } from "i18next";
import { api, ApiError } from "../../lib/client/api.ts";
import { FIRST_PAGE, type PageState } from "../ui/Pagination.tsx";
import { toast } from "../ui/Toast.tsx";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import type { Shape } from "../../modules/geofences/geometry.ts";
import { createFenceMap, type FenceMap, type VehicleView } from "./map.ts";
import type { PlaceHit } from "./places.ts";
import type { ZoneRow } from "./ZoneForm.tsx";

export type Kind = "fence" | "landmark" | "blackCar";
export interface Group {
  id: string;
  name: string;
  isDefault: boolean;
  top: boolean;
  count: number;
}
export type ZonePage = { total: number; limit: number; list: ZoneRow[] };

export const KINDS: Kind[] = ["fence", "landmark", "blackCar"];
/** Spec §9 default map centre: where the map opens for an account without positioned vehicles. */
const DEFAULT_CENTER = { lat: 29.06, lng: 106.16 };
/** Vehicle markers are refreshed this often (the editor is not a live monitor). */
const VEHICLE_REFRESH_MS = 60_000;

export interface EditorState {
  t: TFunction;
  kind: Signal<Kind>;
  groups: Signal<Group[]>;
  groupId: Signal<string>;
  keyword: Signal<string>;
  page: Signal<PageState>;
  /** Bumped by a search, so the list reloads even when it already was on page 1. */
  searches: Signal<number>;
  data: Signal<ZonePage | null>;
  /** Every zone of the kind, drawn on the map. */
  layer: Signal<ZoneRow[]>;
  selected: Signal<string | null>;
  editing: Signal<Partial<ZoneRow> | null>;
  drawing: Signal<"circle" | "polygon" | null>;
  /** A zone whose shape is being edited on the map (with the shape as it is now). */
  reshaping: Signal<ZoneRow | null>;
  dialog: Signal<"groups" | "import" | null>;
  confirm: Signal<ZoneRow | null>;
  loading: Signal<boolean>;
  /** Vehicles on the map (null until the first answer). */
  vehicles: Signal<VehicleView[] | null>;
  map: { current: FenceMap | null };
  firstVehicles: { current: Promise<VehicleView[]> | null };
  /** The kind the view was last fitted for (null: the page just opened). */
  fitted: { current: Kind | null };
}

export function createEditorState(t: TFunction): EditorState {
  return {
    t,
    kind: signal<Kind>("fence"),
    groups: signal<Group[]>([]),
    groupId: signal(""),
    keyword: signal(""),
    page: signal(FIRST_PAGE),
    searches: signal(0),
    data: signal<ZonePage | null>(null),
    layer: signal<ZoneRow[]>([]),
    selected: signal<string | null>(null),
    editing: signal<Partial<ZoneRow> | null>(null),
    drawing: signal<"circle" | "polygon" | null>(null),
    reshaping: signal<ZoneRow | null>(null),
    dialog: signal<"groups" | "import" | null>(null),
    confirm: signal<ZoneRow | null>(null),
    loading: signal(true),
    vehicles: signal<VehicleView[] | null>(null),
    map: { current: null },
    firstVehicles: { current: null },
    fitted: { current: null },
  };
}

export const fail = (s: EditorState) => (e: unknown) =>
  toast(e instanceof ApiError ? e.message : s.t("ui.requestFailed"), "error");

export const loadGroups = (s: EditorState) =>
  api<Group[]>("/v3/new/geofence/group/list", {}).then((g) => (s.groups.value = g)).catch(
    fail(s),
  );

/** Loads the list page and the kind's map layer. */
export async function load(s: EditorState): Promise<void> {
  s.loading.value = true;
  const kind = s.kind.peek(), groupId = s.groupId.peek(), keyword = s.keyword.peek().trim();
  try {
    const [list, all] = await Promise.all([
      api<ZonePage>("/v3/new/geofence/list", {
        kind,
        ...(groupId ? { groupId } : {}),
        ...(keyword ? { keyword } : {}),
        ...s.page.peek(),
      }),
      api<ZoneRow[]>("/v3/new/geofence/layer", { kind }),
    ]);
    s.data.value = list;
    s.layer.value = all;
    // The page opens on the user's vehicles (else its zones, else the spec's centre); a tab
    // opened later shows its zones; later saves keep the operator's view.
    if (s.fitted.current !== kind) {
      const opening = s.fitted.current === null;
      s.fitted.current = kind;
      const onVehicles = opening && (await s.firstVehicles.current)?.length &&
        s.map.current?.fitVehicles();
      if (!onVehicles && all.length) s.map.current?.focus(all[0]);
    }
  } catch (e) {
    fail(s)(e);
  } finally {
    s.loading.value = false;
  }
}

/** Back to page 1 with the typed keyword. */
export function search(s: EditorState) {
  s.page.value = { ...s.page.peek(), pageNum: 1 };
  s.searches.value++;
}

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

/** The map (built once in the browser into `mapEl`), the groups and the vehicles. */
export function useFenceMap(s: EditorState, mapEl: { current: HTMLDivElement | null }) {
  useEffect(() => {
    if (!mapEl.current) return;
    const m = createFenceMap(mapEl.current, DEFAULT_CENTER);
    m.onSelect((id) => (s.selected.value = id));
    s.map.current = m;
    // For e2e tests: the map behind the page.
    (globalThis as Record<string, unknown>).__tpFenceMap = m;
    loadGroups(s);
    const showVehicles = () =>
      loadVehicles().then((list) => {
        m.setVehicles(list);
        s.vehicles.value = list;
        return list;
      }, () => [] as VehicleView[]);
    s.firstVehicles.current = showVehicles();
    const timer = setInterval(showVehicles, VEHICLE_REFRESH_MS);
    return () => {
      clearInterval(timer);
      m.dispose();
    };
  }, []);
}

export function startDraw(s: EditorState, shape: "circle" | "polygon") {
  // The new zone takes the kind and group shown when drawing started.
  const kind = s.kind.peek(), groupId = s.groupId.peek() || undefined;
  s.drawing.value = shape;
  s.map.current?.draw(shape, (sh: Shape) => {
    s.drawing.value = null;
    s.editing.value = { kind, shape: sh, color: "#3b7aff", groupId };
  });
}

export function cancelDraw(s: EditorState) {
  s.map.current?.cancelDraw();
  s.drawing.value = null;
}

/** Edits a zone's shape on the map (saved through the zone form). */
export function reshape(s: EditorState, z: ZoneRow) {
  s.reshaping.value = z;
  s.selected.value = z.id;
  s.map.current?.focus(z);
  s.map.current?.editShape(z, (shape) => {
    const r = s.reshaping.peek();
    s.reshaping.value = r && { ...r, shape };
  });
}

/** Draws the reshaped zone anew (circle or polygon). */
export function redraw(s: EditorState, shape: "circle" | "polygon") {
  const z = s.reshaping.peek()!;
  s.drawing.value = shape;
  s.map.current?.draw(shape, (sh: Shape) => {
    s.drawing.value = null;
    reshape(s, { ...z, shape: sh });
  });
}

export function endReshape(s: EditorState, save: boolean) {
  s.map.current?.stopEdit();
  s.map.current?.cancelDraw();
  s.drawing.value = null;
  const r = s.reshaping.peek();
  if (save && r) s.editing.value = r;
  s.reshaping.value = null;
}

export async function remove(s: EditorState, z: ZoneRow) {
  try {
    await api("/v3/new/geofence/delete", { id: z.id });
    toast(s.t("geofences.deleted"));
    s.confirm.value = null;
    load(s);
    loadGroups(s);
  } catch (e) {
    fail(s)(e);
  }
}

/** Every zone of the account, for the place search (landmarks, fences, black-car). */
export const allZones = async () =>
  (await Promise.all(KINDS.map((k) => api<ZoneRow[]>("/v3/new/geofence/layer", { kind: k }))))
    .flat();

export function pickPlace(s: EditorState, hit: PlaceHit) {
  if (!hit.zone) return s.map.current?.showPlace(hit.at);
  s.map.current?.focus(hit.zone);
  if (hit.zone.kind === s.kind.peek()) s.selected.value = hit.zone.id;
}
