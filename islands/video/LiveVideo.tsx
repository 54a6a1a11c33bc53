import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import {
  type CameraNickname,
  LIVE_GRID_SIZES,
  type LiveStartAnswer,
  MAX_LIVE_CHANNELS,
  type StreamType,
} from "../../modules/video/model.ts";
import { DevicePanel } from "../../components/video/DevicePanel.tsx";
import { LiveCell } from "../../components/video/LiveCell.tsx";
import { VideoShareDialog } from "../../components/video/VideoShareDialog.tsx";
import { cameraLabel, loadCameras, refusalText } from "../../components/video/video_data.ts";
import { useVideoBasics } from "../../components/video/useVideoBasics.ts";

type GridSize = typeof LIVE_GRID_SIZES[number];
interface Slot {
  imei: string;
  channel: number;
  title: string;
}

const startLive = (imei: string, channel: number, stream: StreamType) => () =>
  api<LiveStartAnswer>("/v3/new/video/live/start", { imei, channel, stream });
const stopLive = (imei: string, channel: number) => () =>
  void api("/v3/new/video/live/stop", { imei, channel }).catch(() => {});

/**
 * /live: the caller's dashcams on the left, their cameras under the chosen one; a camera opens
 * in the selected (or first free) cell of a 1/4/9 grid. Main/sub switches every cell's stream.
 */
function LiveVideo(
  { lang, models, imei: firstImei }: { lang: Lang; models: string[]; imei?: string },
) {
  const t = useMemo(() => translator(lang), [lang]);
  const fail = (e: unknown) => toast(refusalText(e), "error");
  const { devices, settings } = useVideoBasics(models, fail);
  const [size, setSize] = useState<GridSize>(4);
  const [stream, setStream] = useState<StreamType | null>(null);
  const [slots, setSlots] = useState<(Slot | null)[]>(() => Array(MAX_LIVE_CHANNELS).fill(null));
  const [focus, setFocus] = useState(0);
  const [device, setDevice] = useState(firstImei ?? "");
  const [cameras, setCameras] = useState<CameraNickname[] | null>(null);
  const [sharing, setSharing] = useState<Slot | null>(null);
  const chosenStream = stream ?? settings?.defaultStream ?? "sub";

  useEffect(() => {
    setCameras(null);
    if (device) loadCameras(device).then(setCameras);
  }, [device]);

  const open = (cam: CameraNickname) => {
    const d = devices?.find((x) => x.imei === device);
    const already = slots.findIndex((s) => s?.imei === device && s.channel === cam.channel);
    if (already >= 0 && already < size) return setFocus(already);
    const free = slots.findIndex((s, i) => i < size && !s);
    const at = slots[focus] === null || free < 0 ? focus : free;
    const next = [...slots];
    next[at] = {
      imei: device,
      channel: cam.channel,
      title: `${d?.name ?? device} · ${cameraLabel(cam, t)}`,
    };
    setSlots(next);
    setFocus(Math.min(at + 1, size - 1));
  };
  const close = (i: number) => {
    const next = [...slots];
    next[i] = null;
    setSlots(next);
    setFocus(i);
  };
  const resize = (n: GridSize) => {
    setSize(n);
    setSlots(slots.map((s, i) => i < n ? s : null));
    setFocus(Math.min(focus, n - 1));
  };

  return (
    <div class="vd-live" data-testid="live-page">
      <DevicePanel
        t={t}
        devices={devices}
        selected={device}
        onSelect={setDevice}
        expanded={<CameraList t={t} cameras={cameras} onOpen={open} />}
      />
      <section class="vd-main">
        <LiveToolbar
          t={t}
          size={size}
          onSize={resize}
          stream={chosenStream}
          onStream={setStream}
          canClose={slots.some(Boolean)}
          onCloseAll={() => setSlots(Array(MAX_LIVE_CHANNELS).fill(null))}
        />
        {!slots.some(Boolean) && <p class="vd-hint">{t("video.live.hint")}</p>}
        <div class={`vd-grid vd-grid-${size}`}>
          {slots.slice(0, size).map((s, i) => (
            <div
              key={i}
              class={`vd-slot ${i === focus ? "focus" : ""}`}
              onClick={() => setFocus(i)}
            >
              {s
                ? (
                  <LiveCell
                    key={`${s.imei}-${s.channel}`}
                    t={t}
                    title={s.title}
                    restartKey={chosenStream}
                    start={startLive(s.imei, s.channel, chosenStream)}
                    stop={stopLive(s.imei, s.channel)}
                    limitMinutes={settings?.liveDefaultMinutes ?? 0}
                    onClose={() => close(i)}
                    actions={
                      <button
                        type="button"
                        class="link-btn vd-share-btn"
                        onClick={() => setSharing(s)}
                      >
                        {t("video.share.button")}
                      </button>
                    }
                  />
                )
                : <div class="vd-empty-cell">{t("video.live.emptyCell", { n: i + 1 })}</div>}
            </div>
          ))}
        </div>
      </section>
      {sharing && (
        <VideoShareDialog
          t={t}
          title={sharing.title}
          request={{ imei: sharing.imei, channel: sharing.channel, kind: "live" }}
          onClose={() => setSharing(null)}
        />
      )}
      <Toasts />
    </div>
  );
}

type T = ReturnType<typeof translator>;

/** The chosen device's cameras; one opens in the grid. */
function CameraList(
  { t, cameras, onOpen }: {
    t: T;
    cameras: CameraNickname[] | null;
    onOpen: (c: CameraNickname) => void;
  },
) {
  return (
    <ul class="vd-cams" role="list">
      {!cameras && <li class="muted">{t("ui.loading")}</li>}
      {cameras?.map((c) => (
        <li key={c.channel}>
          <button type="button" class="vd-cam" data-channel={c.channel} onClick={() => onOpen(c)}>
            <span aria-hidden="true">▶</span> {cameraLabel(c, t)}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Grid size (1/4/9), main/sub stream and "close all". */
function LiveToolbar(
  { t, size, onSize, stream, onStream, canClose, onCloseAll }: {
    t: T;
    size: GridSize;
    onSize: (n: GridSize) => void;
    stream: StreamType;
    onStream: (s: StreamType) => void;
    canClose: boolean;
    onCloseAll: () => void;
  },
) {
  return (
    <div class="toolbar vd-toolbar">
      <div class="vd-seg" role="group" aria-label={t("video.live.grid")}>
        {LIVE_GRID_SIZES.map((n) => (
          <button
            key={n}
            type="button"
            class={`btn ${n === size ? "btn-primary" : ""}`}
            aria-pressed={n === size}
            data-grid={n}
            onClick={() => onSize(n)}
          >
            {t("video.live.cells", { count: n })}
          </button>
        ))}
      </div>
      <div class="vd-seg" role="group" aria-label={t("video.live.stream")}>
        {(["main", "sub"] as const).map((s) => (
          <button
            key={s}
            type="button"
            class={`btn ${s === stream ? "btn-primary" : ""}`}
            aria-pressed={s === stream}
            onClick={() => onStream(s)}
          >
            {t(`video.stream.${s}`)}
          </button>
        ))}
      </div>
      <span class="grow" />
      <button type="button" class="btn" disabled={!canClose} onClick={onCloseAll}>
        {t("video.live.closeAll")}
      </button>
    </div>
  );
}

export default island("video/LiveVideo", LiveVideo);
