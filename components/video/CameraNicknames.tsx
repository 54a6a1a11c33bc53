/**
 * A device's cameras with their nicknames (POST /v3/new/video/cameras/get and cameras/set):
 * one row per channel, the default four plus any the device has. Used on /settings (video) and
 * in the device details.
 */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { type CameraNickname, MAX_CHANNEL } from "../../modules/video/model.ts";
import { loadCameras } from "./video_data.ts";

/** Nicknames are short labels on a grid cell's header. */
const NICKNAME_MAX = 20;

export function CameraNicknames(
  { t, imei, readOnly = false }: { t: TFunction; imei: string; readOnly?: boolean },
) {
  const [rows, setRows] = useState<CameraNickname[] | null>(null);
  const [extra, setExtra] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => {
    setRows(null);
    loadCameras(imei).then(setRows);
  }, [imei]);
  if (!rows) return <div class="table-loading">{t("ui.loading")}</div>;
  const edit = (channel: number, nickname: string) =>
    setRows(rows.map((r) => r.channel === channel ? { ...r, nickname } : r));
  const addChannel = () => {
    const ch = Number(extra);
    if (!Number.isInteger(ch) || ch < 1 || ch > MAX_CHANNEL || rows.some((r) => r.channel === ch)) {
      setError(t("video.cameras.channelInvalid", { max: MAX_CHANNEL }));
      return;
    }
    setError("");
    setRows([...rows, { channel: ch, nickname: "" }].sort((a, b) => a.channel - b.channel));
    setExtra("");
  };
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const cameras = rows.map((r) => ({ channel: r.channel, nickname: r.nickname.trim() }))
        .filter((r) => r.nickname);
      await api("/v3/new/video/cameras/set", { imei, cameras });
      toast(t("video.cameras.saved"));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="vd-cameras" onSubmit={save} data-testid="camera-nicknames">
      <table class="data">
        <thead>
          <tr>
            <th>{t("video.cameras.channel")}</th>
            <th>{t("video.cameras.nickname")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.channel}>
              <td class="mono">{t("video.common.channel", { n: r.channel })}</td>
              <td>
                <input
                  class="input"
                  name={`nickname-${r.channel}`}
                  maxLength={NICKNAME_MAX}
                  value={r.nickname}
                  disabled={readOnly}
                  placeholder={t("video.cameras.placeholder")}
                  aria-label={t("video.cameras.nicknameOf", { n: r.channel })}
                  onInput={(e) => edit(r.channel, (e.target as HTMLInputElement).value)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!readOnly && (
        <div class="toolbar vd-cameras-actions">
          <input
            class="input vd-channel-input"
            type="number"
            min={1}
            max={MAX_CHANNEL}
            value={extra}
            aria-label={t("video.cameras.addChannel")}
            placeholder={t("video.cameras.channel")}
            onInput={(e) => setExtra((e.target as HTMLInputElement).value)}
          />
          <button type="button" class="btn" onClick={addChannel}>
            {t("video.cameras.addChannel")}
          </button>
          <span class="grow" />
          <button class="btn btn-primary" type="submit" disabled={busy}>{t("ui.save")}</button>
        </div>
      )}
      {error && <div class="form-error" role="alert">{error}</div>}
    </form>
  );
}
