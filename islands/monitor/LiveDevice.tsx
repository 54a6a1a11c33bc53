import { useEffect, useMemo, useRef, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { type ObjectsPayload, STATUS_INDEX } from "../../modules/monitor/objects.ts";
import type { DeviceStatus } from "../../modules/devices/model.ts";
import { type BaseMap, createBaseMap, type MapSettings } from "../../components/monitor/basemap.ts";
import { TrackLayers } from "../../components/monitor/tracklayers.ts";
import { addLandmarks } from "../../components/monitor/landmarks.ts";
import { formatter } from "../../components/monitor/format.ts";
import { DeviceCard, type DeviceCardData } from "../../components/monitor/DeviceCard.tsx";
import { type LivePosition, openLive } from "../../components/monitor/live.ts";
import { MapToolbar, useMapProvider } from "../../components/monitor/MapToolbar.tsx";
import { columnsToTrack } from "../../components/monitor/trackdata.ts";
import type { TrackColumns } from "../../modules/positions/columns.ts";
import { AddressBook } from "../../components/monitor/addresses.ts";
import { showCommonAddresses } from "../../components/monitor/common_addresses.ts";

/** How much history the trail starts with, and how long it may grow. */
const TRAIL_HISTORY_MS = 60 * 60_000;
const TRAIL_MAX_POINTS = 5000;

type Mode =
  | { kind: "tracking"; imei: string }
  | { kind: "share"; token: string; expiresAt: string };

const shareQuery = (token: string) => `token=${encodeURIComponent(token)}`;

/** The device's objects answer: by share token, or by IMEI for a logged-in user. */
async function loadObjects(mode: Mode): Promise<ObjectsPayload> {
  return mode.kind === "share"
    ? (await api<{ objects: ObjectsPayload }>(
      `/v3/new/monitor/share/view?${shareQuery(mode.token)}`,
    )).objects
    : await api<ObjectsPayload>(`/v3/new/monitor/objects?imei=${mode.imei}`);
}

/** The live stream of the page's one device. */
const streamUrl = (mode: Mode) =>
  mode.kind === "share"
    ? `/v3/new/monitor/share/stream?${shareQuery(mode.token)}`
    : `/v3/new/monitor/stream?imei=${mode.imei}`;

/** The card's data from the (one-device) objects answer. */
function cardData(objects: ObjectsPayload): DeviceCardData {
  return {
    imei: objects.imei[0],
    name: objects.name[0],
    status: objects.statuses[objects.status[0]],
    speed: objects.speed[0],
    course: objects.course[0],
    gpsTime: objects.gpsTime[0],
    hbTime: objects.hbTime[0],
    lat: objects.lat[0],
    lng: objects.lng[0],
    acc: objects.acc[0],
    facts: objects.facts ?? null,
  };
}

/** The last hour of a device's track, as the start of its trail (null when it cannot load). */
function trailHistory(imei: string) {
  const now = Date.now();
  return api<TrackColumns>("/v3/new/monitor/playback", {
    imei,
    startTime: new Date(now - TRAIL_HISTORY_MS).toISOString(),
    endTime: new Date(now).toISOString(),
    format: "columns",
  }).then(columnsToTrack).catch(() => null);
}

type SetDevice = (f: (prev: DeviceCardData | null) => DeviceCardData | null) => void;

/** The share page's readings and address, again every minute. */
function useShareRefresh(mode: Mode, setDevice: SetDevice) {
  useEffect(() => {
    if (mode.kind !== "share") return;
    const timer = setInterval(() => {
      loadObjects(mode).then((objects) => {
        setDevice((prev) => prev && { ...prev, acc: objects.acc[0], facts: objects.facts ?? null });
      }).catch(() => {});
    }, 60_000);
    return () => clearInterval(timer);
  }, []);
}

/** A share page stops at its expiry time without waiting for the server. */
function useShareExpiry(mode: Mode): boolean {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    if (mode.kind !== "share") return;
    const left = Date.parse(mode.expiresAt) - Date.now();
    const timer = setTimeout(() => setExpired(true), Math.max(0, Math.min(left, 2 ** 31 - 1)));
    return () => clearTimeout(timer);
  }, []);
  return expired;
}

/**
 * One device followed live with its trail: /monitorTracking (logged in) and the public
 * /monitorShare page (by link token, until the link expires).
 */
function LiveDevice({ lang, settings, mode }: { lang: Lang; settings: MapSettings; mode: Mode }) {
  const t = translator(lang);
  const fmt = useMemo(() => formatter(settings, t), [lang]);
  const mapEl = useRef<HTMLDivElement>(null);
  const base = useRef<BaseMap | null>(null);
  const layers = useRef<TrackLayers | null>(null);
  const trail = useRef<{ time: number[]; lat: number[]; lng: number[] }>({
    time: [],
    lat: [],
    lng: [],
  });
  const [device, setDevice] = useState<DeviceCardData | null>(null);
  const [error, setError] = useState("");
  const [follow, setFollow] = useState(true);
  const [live, setLive] = useState(false);
  const expired = useShareExpiry(mode);
  const [points, setPoints] = useState(0);
  const followRef = useRef(follow);
  followRef.current = follow;
  const provider = useMapProvider(settings, base);
  // Tracking: the address follows the vehicle (asked again after it moved ~100 m). The share
  // page has no login: its address comes with the share answer, refreshed every minute.
  const [, setAddressVersion] = useState(0);
  const book = useMemo(() => new AddressBook(() => setAddressVersion((v) => v + 1)), []);
  useEffect(() => () => book.dispose(), []);

  const redraw = (course: number, status: DeviceStatus) => {
    const tr = trail.current, l = layers.current!;
    if (!tr.lat.length) return;
    l.setTrack(tr.lat, tr.lng, [], { endpoints: false });
    const at = l.moveTo(tr.lat.length - 1, 0, course, STATUS_INDEX.get(status) ?? 3);
    setPoints(tr.lat.length);
    if (followRef.current) base.current!.map.getView().animate({ center: at, duration: 400 });
  };

  const push = (time: number, lat: number, lng: number) => {
    const tr = trail.current;
    if (tr.time.length && time <= tr.time[tr.time.length - 1]) return;
    tr.time.push(time);
    tr.lat.push(lat);
    tr.lng.push(lng);
    if (tr.time.length > TRAIL_MAX_POINTS) {
      tr.time.shift();
      tr.lat.shift();
      tr.lng.shift();
    }
  };

  useEffect(() => {
    const b = createBaseMap(mapEl.current!, settings, { zoom: 15 });
    base.current = b;
    layers.current = new TrackLayers(b);
    // A share-page visitor has no account, hence no landmarks.
    if (mode.kind !== "share") {
      addLandmarks(b, t);
      showCommonAddresses(b, mode.imei);
    }
    (globalThis as Record<string, unknown>).__tpLive = { base: b, layers: layers.current, trail };
    let stop = () => {};
    const start = async () => {
      try {
        const objects = await loadObjects(mode);
        layers.current!.iconType = objects.appType[0] ?? 0;
        const d = cardData(objects);
        setDevice(d);
        if (mode.kind === "tracking") {
          const hist = await trailHistory(mode.imei);
          for (let i = 0; i < (hist?.n ?? 0); i++) push(hist!.time[i], hist!.lat[i], hist!.lng[i]);
        }
        if (d.lat !== null && d.lng !== null) push(d.gpsTime ?? Date.now(), d.lat, d.lng);
        redraw(d.course, d.status);
        if (d.lat !== null && d.lng !== null) {
          b.map.getView().setCenter(b.project(d.lng, d.lat));
        }
        stop = openLive(streamUrl(mode), {
          connection: setLive,
          positions: (rows: LivePosition[]) => {
            const r = rows[rows.length - 1];
            if (!r) return;
            const [, lat, lng, speed, course, time, st] = r;
            push(time, lat, lng);
            setDevice((prev) => {
              if (!prev) return prev;
              const status = st >= 0 ? objects.statuses[st] : prev.status;
              redraw(course, status);
              return {
                ...prev,
                lat,
                lng,
                speed,
                course,
                gpsTime: time,
                hbTime: Date.now(),
                status,
              };
            });
          },
          statuses: (rows) => {
            const st = rows[rows.length - 1]?.[1];
            if (st !== undefined) {
              setDevice((prev) => prev && { ...prev, status: objects.statuses[st] });
            }
          },
        });
      } catch (e) {
        setError(e instanceof ApiError ? e.message : String(e));
      }
    };
    start();
    return () => {
      stop();
      b.map.setTarget(undefined);
    };
  }, []);

  useShareRefresh(mode, setDevice);

  return (
    <div class={`mon-live-page ${mode.kind}`}>
      <div ref={mapEl} class="mon-map" data-testid="map" />
      <MapToolbar
        {...provider}
        t={t}
      >
        <label class="mon-check mon-toolbar-check">
          <input
            type="checkbox"
            checked={follow}
            onChange={(e) => setFollow((e.target as HTMLInputElement).checked)}
          />
          {t("monitor.tracking.follow")}
        </label>
      </MapToolbar>
      <LiveCard
        mode={mode}
        problem={expired ? t("errors.shareLinkExpired") : error}
        device={device && mode.kind === "tracking"
          ? { ...device, address: book.get(device.imei, device.lat, device.lng) }
          : device}
        live={live}
        points={points}
        fmt={fmt}
        t={t}
      />
    </div>
  );
}

/** The card under the map: the device and its live state, or why there is none. */
function LiveCard({ mode, problem, device, live, points, fmt, t }: {
  mode: Mode;
  /** Why the page shows no device (an expired link, a refusal); empty when it does. */
  problem: string;
  device: DeviceCardData | null;
  live: boolean;
  points: number;
  fmt: ReturnType<typeof formatter>;
  t: ReturnType<typeof translator>;
}) {
  return (
    <div class="mon-live-card">
      {problem
        ? (
          <div class="mon-card mon-card-error" role="alert">
            <strong>
              {mode.kind === "share" ? t("monitor.share.expiredTitle") : t("monitor.tabs.tracking")}
            </strong>
            <p>{problem}</p>
          </div>
        )
        : device
        ? (
          <DeviceCard d={device} fmt={fmt} t={t}>
            <span class={`mon-live ${live ? "on" : ""}`}>
              <i aria-hidden="true" />
              {live ? t("monitor.live.on") : t("monitor.live.off")}
            </span>
            <span class="muted" data-trail={points}>
              {t("monitor.tracking.points", { n: points })}
            </span>
            {mode.kind === "tracking" && (
              <a class="btn" href={`/monitorPlayback?imei=${device.imei}`}>
                {t("monitor.actions.playback")}
              </a>
            )}
          </DeviceCard>
        )
        : <div class="mon-card">{t("ui.loading")}</div>}
      {mode.kind === "share" && !problem && (
        <p class="mon-share-valid">
          {t("monitor.share.validUntilLong", { time: fmt.time(Date.parse(mode.expiresAt)) })}
        </p>
      )}
    </div>
  );
}

export default island("monitor/LiveDevice", LiveDevice);
