/**
 * A day's recordings on a 24-hour bar: each file is a block (alarm files marked), the playing
 * one highlighted; clicking a block plays it.
 */
import type { TFunction } from "i18next";
import type { HistoryFile } from "../../modules/video/model.ts";
import { formatTime } from "./video_data.ts";

const DAY_MS = 86_400_000;
const HOURS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

export function Timeline(
  { t, files, dayStart, timeZone, playing, onPick }: {
    t: TFunction;
    files: HistoryFile[];
    /** The day's first instant (ISO, UTC). */
    dayStart: string;
    timeZone: string;
    playing: string | null;
    onPick: (f: HistoryFile) => void;
  },
) {
  const from = new Date(dayStart).getTime();
  const pct = (iso: string) =>
    Math.min(100, Math.max(0, ((new Date(iso).getTime() - from) / DAY_MS) * 100));
  return (
    <div class="vd-timeline" aria-label={t("video.history.timeline")} role="group">
      <div class="vd-timeline-bar">
        {files.map((f) => {
          const left = pct(f.startTime);
          const width = Math.max(0.4, pct(f.endTime) - left);
          return (
            <button
              key={f.id}
              type="button"
              class={`vd-span ${f.alarmFlags !== "0" ? "alarm" : ""} ${
                f.id === playing ? "playing" : ""
              }`}
              style={{ left: `${left}%`, width: `${width}%` }}
              title={`${formatTime(f.startTime, timeZone)} – ${formatTime(f.endTime, timeZone)}`}
              aria-label={t("video.history.playFile", {
                start: formatTime(f.startTime, timeZone).slice(11),
              })}
              onClick={() => onPick(f)}
            />
          );
        })}
      </div>
      <div class="vd-timeline-scale" aria-hidden="true">
        {HOURS.map((h) => (
          <span key={h} style={{ left: `${(h / 24) * 100}%` }}>{String(h).padStart(2, "0")}</span>
        ))}
      </div>
    </div>
  );
}
