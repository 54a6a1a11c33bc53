/**
 * The pictures and videos of one alarm (event media) in a pop-up, with the face-match result
 * when a DMS camera reported one. Used by /eventVideo and the alert centre.
 */
import type { TFunction } from "i18next";
import { useRef, useState } from "react";
import { Modal } from "../ui/Modal.tsx";
import type { EventMediaRow } from "../../modules/video/model.ts";
import { useHlsPlayback } from "./hls.ts";
import { alarmLabel } from "./video_data.ts";

/** A recorded clip: MP4 files play directly, HLS playlists through hls.js. */
export function ClipPlayer({ src, label }: { src: string; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const hls = /\.m3u8(\?|$)/.test(src);
  useHlsPlayback(ref, hls ? src : null, "history", {});
  return (
    <video
      ref={ref}
      class="vd-clip"
      src={hls ? undefined : src}
      controls
      playsInline
      preload="metadata"
      aria-label={label}
    />
  );
}

export function MediaViewer(
  { t, row, onClose }: { t: TFunction; row: EventMediaRow; onClose: () => void },
) {
  const items = [
    ...row.pictures.map((src) => ({ kind: "picture" as const, src })),
    ...row.videos.map((src) => ({ kind: "video" as const, src })),
  ];
  const [at, setAt] = useState(0);
  const item = items[at];
  return (
    <Modal
      title={t("video.event.viewerTitle", { name: row.deviceName })}
      onClose={onClose}
      closeLabel={t("ui.close")}
      width={820}
    >
      <div class="vd-viewer" data-testid="media-viewer">
        <div class="vd-viewer-stage">
          {!item && <p class="empty">{t("video.event.noMedia")}</p>}
          {item?.kind === "picture" && (
            <img src={item.src} alt={t("video.event.picture")} data-testid="viewer-picture" />
          )}
          {item?.kind === "video" && (
            <ClipPlayer key={item.src} src={item.src} label={t("video.event.video")} />
          )}
        </div>
        {items.length > 1 && (
          <div class="vd-viewer-strip">
            {items.map((m, i) => (
              <button
                key={m.src}
                type="button"
                class={`vd-thumb-btn ${i === at ? "active" : ""}`}
                onClick={() => setAt(i)}
                aria-label={t(`video.event.${m.kind}`) + ` ${i + 1}`}
              >
                {m.kind === "picture"
                  ? <img src={m.src} alt="" loading="lazy" />
                  : <span class="vd-play-mark" aria-hidden="true">▶</span>}
              </button>
            ))}
          </div>
        )}
        <dl class="vd-viewer-facts">
          <dt>{t("video.event.alarm")}</dt>
          <dd>{alarmLabel(t, row.alarmType)}</dd>
          <dt>{t("video.event.state")}</dt>
          <dd>{t(`video.media.${row.state}`)}</dd>
          {row.face && <FaceFacts t={t} face={row.face} />}
        </dl>
      </div>
    </Modal>
  );
}

/** The face-match state, the driver and the similarity when the camera sent them. */
export function FaceFacts({ t, face }: { t: TFunction; face: NonNullable<EventMediaRow["face"]> }) {
  return (
    <>
      <dt>{t("video.event.face")}</dt>
      <dd>
        <span class={`badge vd-face-${face.state}`} data-testid="face-state">
          {t(`video.face.${face.state}`)}
        </span>
        {face.driverPhoto && (
          <img class="vd-face-photo" src={face.driverPhoto} alt={face.driverName ?? ""} />
        )}
        {face.driverName && <span class="vd-face-driver">{face.driverName}</span>}
        {face.similarity !== undefined && (
          <span class="muted">{t("video.event.similarity", { n: face.similarity })}</span>
        )}
      </dd>
    </>
  );
}
