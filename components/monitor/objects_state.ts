/**
 * State of one /monitorObject page (islands/monitor/Objects.tsx), shared by its parts as signals.
 * Created per island instance (never module-global: a test page may render several), so each
 * part re-renders only for the signals it reads. The map objects are plain refs: they are
 * built once in the browser and mutated in place.
 */
import { type Signal, signal } from "@preact/signals";
import type { TFunction } from "i18next";
import type { CountKey, DeviceFacts, ObjectsPayload } from "../../modules/monitor/objects.ts";
import { api } from "../../lib/client/api.ts";
import type { AlarmPlace } from "../../modules/monitor/alarm_link.ts";
import type { BaseMap, MapSettings } from "./basemap.ts";
import type { VehicleLayers } from "./vehicles.ts";
import type { Fleet, SortRule, SortType } from "./fleet.ts";
import { type Formatter, formatter } from "./format.ts";
import type { Pane } from "./PaneSwitch.tsx";
import { AddressBook } from "./addresses.ts";
import type { AlarmPlaceLayer } from "./alarmplace.ts";

type Ref<T> = { current: T };

export interface ObjectsProps {
  settings: MapSettings;
  focus: string;
  /** The user may send instructions (spec: instructionsFlag). */
  canCommand: boolean;
  /** "Show on map" from an alert: where the alarm happened (marked beside the vehicle). */
  alarm?: AlarmPlace | null;
}

export interface ObjectsState {
  t: TFunction;
  fmt: Formatter;
  props: ObjectsProps;
  /** Bumped when the fleet's data changed (answers, live batches, addresses, follow marks). */
  version: Signal<number>;
  loading: Signal<boolean>;
  loadError: Signal<string>;
  live: Signal<boolean>;
  tilesFailing: Signal<boolean>;
  tab: Signal<CountKey>;
  search: Signal<string>;
  sortType: Signal<SortType>;
  sortRule: Signal<SortRule>;
  /** Seconds between full reloads; 0 = live stream only. */
  refresh: Signal<number>;
  /** undefined = every group; "" = the default group. */
  group: Signal<string | undefined>;
  selected: Signal<string>;
  sharing: Signal<string | null>;
  commanding: Signal<string | null>;
  /** On a phone: the map (with the selected vehicle's card) or the list. */
  pane: Signal<Pane>;
  /** The selected device's readings and address (asked when it is selected). */
  facts: Signal<{ imei: string; facts: DeviceFacts } | null>;
  alarmShown: Signal<boolean>;
  fleet: Ref<Fleet | null>;
  layers: Ref<VehicleLayers | null>;
  base: Ref<BaseMap | null>;
  alarmLayer: Ref<AlarmPlaceLayer | null>;
  popupEl: Ref<HTMLDivElement | null>;
  /** Addresses of the rows on screen and of the selected vehicle, asked in batches. */
  book: AddressBook;
  /**
   * The first objects answer, asked when the state is made in the browser (null on the
   * server): the page preloads it, so it is read and parsed while the island hydrates and the
   * map is built, and the map's first frame already has every vehicle.
   */
  firstAnswer: Promise<ObjectsPayload> | null;
}

/** Where the fleet comes from (the page preloads this URL: routes/monitor.tsx). */
export const OBJECTS_URL = "/v3/new/monitor/objects";

/** Starts the first objects request (marked for bench:monitor); its failure is read later. */
function askFirstAnswer(): Promise<ObjectsPayload> | null {
  if (typeof document === "undefined") return null;
  performance.mark("tp:objects:request");
  const answer = api<ObjectsPayload>(OBJECTS_URL);
  answer.catch(() => {}); // handled where it is awaited (loadObjects)
  return answer;
}

export function createObjectsState(t: TFunction, props: ObjectsProps): ObjectsState {
  const version = signal(0);
  return {
    t,
    fmt: formatter(props.settings, t),
    props,
    version,
    loading: signal(true),
    loadError: signal(""),
    live: signal(false),
    tilesFailing: signal(false),
    tab: signal<CountKey>("all"),
    search: signal(""),
    sortType: signal<SortType>("name"),
    sortRule: signal<SortRule>("asc"),
    refresh: signal(30),
    group: signal<string | undefined>(undefined),
    selected: signal(props.focus),
    sharing: signal<string | null>(null),
    commanding: signal<string | null>(null),
    pane: signal<Pane>("map"),
    facts: signal<{ imei: string; facts: DeviceFacts } | null>(null),
    alarmShown: signal(!!props.alarm),
    fleet: { current: null },
    layers: { current: null },
    base: { current: null },
    alarmLayer: { current: null },
    popupEl: { current: null },
    book: new AddressBook(() => version.value++),
    firstAnswer: askFirstAnswer(),
  };
}

/** Preferences live in this browser (sort settings, refresh interval). */
export function pref<T>(key: string, fallback: T): T {
  try {
    const v = localStorage.getItem(`tp.monitor.${key}`);
    return v === null ? fallback : JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

export function savePref(key: string, value: unknown) {
  try {
    localStorage.setItem(`tp.monitor.${key}`, JSON.stringify(value));
  } catch { /* private mode */ }
}
