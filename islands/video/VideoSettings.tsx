import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import type { StreamType, VideoSettings as Settings } from "../../modules/video/model.ts";
import { DevicePanel } from "../../components/video/DevicePanel.tsx";
import { CameraNicknames } from "../../components/video/CameraNicknames.tsx";
import { useVideoBasics } from "../../components/video/useVideoBasics.ts";
import { refusalText } from "../../components/video/video_data.ts";

/**
 * /settings (video): the caller's default stream, live default duration and daily play limit
 * (settings/get, settings/set), and the camera nicknames of each device (cameras/get, set).
 */
function VideoSettings({ lang, models }: { lang: Lang; models: string[] }) {
  const t = useMemo(() => translator(lang), [lang]);
  const fail = (e: unknown) => toast(refusalText(e), "error");
  const { devices, settings } = useVideoBasics(models, fail);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [error, setError] = useState<{ field: string | null; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [device, setDevice] = useState("");
  useEffect(() => void (settings && setDraft(settings)), [settings]);

  const save = async (e: Event) => {
    e.preventDefault();
    if (!draft) return;
    setBusy(true);
    setError(null);
    try {
      await api("/v3/new/video/settings/set", draft);
      toast(t("video.settings.saved"));
    } catch (err) {
      setError({
        field: refusedField(err),
        text: err instanceof ApiError ? err.message : String(err),
      });
    } finally {
      setBusy(false);
    }
  };
  const num = (k: "liveDefaultMinutes" | "playLimitPerDay") => (e: Event) =>
    setDraft({
      ...draft!,
      [k]: Math.max(0, Math.floor(Number((e.target as HTMLInputElement).value) || 0)),
    });
  const fieldError = (f: string) =>
    error?.field === f ? <span class="field-error">{error.text}</span> : null;

  return (
    <div class="vd-settings" data-testid="video-settings">
      <section class="panel vd-settings-form">
        <h2>{t("video.settings.playback")}</h2>
        {!draft && <div class="table-loading">{t("ui.loading")}</div>}
        {draft && (
          <form onSubmit={save}>
            <label class="field">
              <span class="field-label">{t("video.settings.defaultStream")}</span>
              <select
                class="input"
                name="defaultStream"
                value={draft.defaultStream}
                onChange={(e) =>
                  setDraft({
                    ...draft,
                    defaultStream: (e.target as HTMLSelectElement).value as StreamType,
                  })}
              >
                <option value="main">{t("video.stream.main")}</option>
                <option value="sub">{t("video.stream.sub")}</option>
              </select>
              <span class="field-hint">{t("video.settings.defaultStreamHint")}</span>
            </label>
            <label class="field">
              <span class="field-label">{t("video.settings.liveMinutes")}</span>
              <input
                class="input"
                type="number"
                name="liveDefaultMinutes"
                min={0}
                value={draft.liveDefaultMinutes}
                onInput={num("liveDefaultMinutes")}
              />
              <span class="field-hint">{t("video.settings.liveMinutesHint")}</span>
              {fieldError("liveDefaultMinutes")}
            </label>
            <label class="field">
              <span class="field-label">{t("video.settings.playLimit")}</span>
              <input
                class="input"
                type="number"
                name="playLimitPerDay"
                min={0}
                value={draft.playLimitPerDay}
                onInput={num("playLimitPerDay")}
              />
              <span class="field-hint">{t("video.settings.playLimitHint")}</span>
              {fieldError("playLimitPerDay")}
            </label>
            {error && !error.field && <div class="form-error" role="alert">{error.text}</div>}
            <button class="btn btn-primary" type="submit" disabled={busy}>{t("ui.save")}</button>
          </form>
        )}
      </section>
      <section class="panel vd-settings-cams">
        <h2>{t("video.cameras.title")}</h2>
        <p class="muted">{t("video.cameras.intro")}</p>
        <div class="vd-settings-cams-body">
          <DevicePanel t={t} devices={devices} selected={device} onSelect={setDevice} />
          <div class="vd-settings-cams-form">
            {device
              ? <CameraNicknames key={device} t={t} imei={device} />
              : <p class="vd-hint">{t("video.cameras.pick")}</p>}
          </div>
        </div>
      </section>
      <Toasts />
    </div>
  );
}

export default island("video/VideoSettings", VideoSettings);
