/** What every console video page loads first: the devices and the caller's video settings. */
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import type { VideoSettings } from "../../modules/video/model.ts";
import { loadVideoDevices, type VideoDevice } from "./video_data.ts";

/** Used until the settings answer (and when they cannot be read). */
export const FALLBACK_SETTINGS: VideoSettings = {
  defaultStream: "sub",
  liveDefaultMinutes: 0,
  playLimitPerDay: 0,
};

export function useVideoBasics(models: readonly string[], onError: (e: unknown) => void) {
  const [devices, setDevices] = useState<VideoDevice[] | null>(null);
  const [settings, setSettings] = useState<VideoSettings | null>(null);
  useEffect(() => {
    loadVideoDevices(models).then(setDevices, (e) => {
      setDevices([]);
      onError(e);
    });
    api<VideoSettings>("/v3/new/video/settings/get", {}).then(
      setSettings,
      () => setSettings(FALLBACK_SETTINGS),
    );
  }, []);
  return { devices, settings };
}
