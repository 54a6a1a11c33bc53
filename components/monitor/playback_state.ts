/**
 * State of one /monitorPlayback page (islands/monitor/Playback.tsx), shared by its parts as
 * signals and created per island instance (never module-global). The map objects are refs.
 */
import { type Signal, signal } from "@preact/signals";
import type { TFunction } from "i18next";
import type { Stop } from "../../modules/monitor/track.ts";
import { toLocalInput } from "../../modules/monitor/time.ts";
import type { BaseMap, MapSettings } from "./basemap.ts";
import type { TrackLayers } from "./tracklayers.ts";
import type { Track } from "./trackdata.ts";
import { type Formatter, formatter } from "./format.ts";
import type { Pane } from "./PaneSwitch.tsx";
import { AddressBook } from "./addresses.ts";

type Ref<T> = { current: T };

export interface PlaybackState {
  t: TFunction;
  fmt: Formatter;
  settings: MapSettings;
  devices: Signal<{ imei: string; name: string }[]>;
  imei: Signal<string>;
  /** The range as typed (datetime-local, in the user's time zone). */
  from: Signal<string>;
  to: Signal<string>;
  errors: Signal<Record<string, string>>;
  loading: Signal<boolean>;
  track: Signal<Track | null>;
  stops: Signal<Stop[]>;
  queried: Signal<boolean>;
  playing: Signal<boolean>;
  speed: Signal<number>;
  follow: Signal<boolean>;
  /** Track time shown (ms). */
  time: Signal<number>;
  /** Point under the pointer (map or chart), -1 for none. */
  hover: Signal<number>;
  /** On a phone: the query form and stops, or the map with the player. */
  pane: Signal<Pane>;
  /** Bumped when stop addresses arrive. */
  addresses: Signal<number>;
  base: Ref<BaseMap | null>;
  layers: Ref<TrackLayers | null>;
  /** Application type (icon) per device, from the objects answer. */
  appTypes: Ref<Map<string, number>>;
  /** The track arrived while the map pane was hidden: fit it once the map has a size. */
  fitPending: Ref<boolean>;
  /**
   * The play loop's own view: `time` without a render per frame, and `playing` as of the
   * last render (a pause takes effect for following only once rendered, as it always did).
   */
  loop: { time: number; playing: boolean };
  /** Where each stop was (asked for the stops listed; keyed by device and place). */
  book: AddressBook;
}

export function createPlaybackState(
  t: TFunction,
  settings: MapSettings,
  imei: string,
  /** A range to show at once (the page's startTime/endTime, e.g. from a report row). */
  range: { from: number; to: number } | null = null,
): PlaybackState {
  const now = Date.now();
  const addresses = signal(0);
  return {
    t,
    fmt: formatter(settings, t),
    settings,
    devices: signal([]),
    imei: signal(imei),
    from: signal(toLocalInput(range?.from ?? now - 24 * 3600_000, settings.timeZone)),
    // The input shows minutes: round up, so fixes of the current minute are inside the range.
    to: signal(
      toLocalInput(Math.ceil((range?.to ?? now) / 60_000) * 60_000, settings.timeZone),
    ),
    errors: signal({}),
    loading: signal(false),
    track: signal<Track | null>(null),
    stops: signal<Stop[]>([]),
    queried: signal(false),
    playing: signal(false),
    speed: signal(1),
    follow: signal(true),
    time: signal(0),
    hover: signal(-1),
    pane: signal<Pane>("list"),
    addresses,
    base: { current: null },
    layers: { current: null },
    appTypes: { current: new Map() },
    fitPending: { current: false },
    loop: { time: 0, playing: false },
    book: new AddressBook(() => addresses.value++),
  };
}
