/**
 * The video pages' device list: the caller's video-capable devices with a search box and an
 * online mark; the chosen device unfolds its cameras (given by the page as `expanded`).
 */
import type { TFunction } from "i18next";
import type { ComponentChildren } from "preact";
import { useMemo, useState } from "react";
import type { VideoDevice } from "./video_data.ts";

/** Rows drawn at once; the search narrows longer lists. */
const SHOWN = 200;

export function DevicePanel(
  { t, devices, selected, onSelect, expanded }: {
    t: TFunction;
    devices: VideoDevice[] | null;
    selected: string;
    onSelect: (imei: string) => void;
    expanded?: ComponentChildren;
  },
) {
  const [q, setQ] = useState("");
  const shown = useMemo(() => {
    const query = q.trim().toLowerCase();
    return (devices ?? []).filter((d) =>
      !query || d.imei.includes(query) || d.name.toLowerCase().includes(query)
    ).slice(0, SHOWN);
  }, [devices, q]);
  return (
    <aside class="vd-devices" aria-label={t("video.devices.title")}>
      <input
        class="input"
        type="search"
        value={q}
        placeholder={t("video.devices.search")}
        aria-label={t("video.devices.search")}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
      />
      {!devices && <div class="table-loading">{t("ui.loading")}</div>}
      {devices && !devices.length && <p class="empty">{t("video.devices.none")}</p>}
      <ul class="vd-device-list" role="list">
        {shown.map((d) => (
          <li key={d.imei} class={d.imei === selected ? "active" : ""}>
            <button
              type="button"
              class="vd-device"
              data-imei={d.imei}
              aria-expanded={d.imei === selected}
              onClick={() => onSelect(d.imei === selected ? "" : d.imei)}
            >
              <span
                class={`vd-dot ${d.online ? "on" : "off"}`}
                aria-label={t(d.online ? "video.devices.online" : "video.devices.offline")}
              />
              <span class="vd-device-name">{d.name}</span>
              <span class="muted mono">{d.imei}</span>
            </button>
            {d.imei === selected && expanded}
          </li>
        ))}
      </ul>
    </aside>
  );
}
