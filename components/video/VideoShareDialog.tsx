/**
 * Creates a public link to one channel (live) or one history file (POST
 * /v3/new/video/share/create → {url}); the link opens /openLive or /openHistory without login
 * and stops working when it expires or is revoked.
 */
import type { TFunction } from "i18next";
import { useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import type { VideoShareRequest, VideoShareRow } from "../../modules/video/model.ts";

/** Validity choices in hours (video links last at most 7 days). */
const HOURS = [1, 6, 24, 72, 168];

export function VideoShareDialog(
  { t, request, title, onClose }: {
    t: TFunction;
    request: Omit<VideoShareRequest, "validHours">;
    title: string;
    onClose: () => void;
  },
) {
  const [hours, setHours] = useState(24);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [url, setUrl] = useState("");
  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const row = await api<VideoShareRow | { url: string }>("/v3/new/video/share/create", {
        ...request,
        validHours: hours,
      });
      setUrl(new URL(row.url, location.origin).href);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const copy = () =>
    navigator.clipboard?.writeText(url).then(() => toast(t("video.share.copied")), () => {});
  return (
    <Modal
      title={t("video.share.title", { name: title })}
      onClose={onClose}
      closeLabel={t("ui.close")}
    >
      <form class="vd-share" onSubmit={create}>
        <label class="field">
          <span class="field-label">{t("video.share.validity")}</span>
          <select
            class="input"
            value={hours}
            onChange={(e) => setHours(Number((e.target as HTMLSelectElement).value))}
          >
            {HOURS.map((h) => (
              <option key={h} value={h}>{t("video.share.hours", { count: h })}</option>
            ))}
          </select>
        </label>
        <button class="btn btn-primary" type="submit" disabled={busy}>
          {t("video.share.create")}
        </button>
        {error && <div class="form-error" role="alert">{error}</div>}
        {url && (
          <div class="vd-share-link">
            <input class="input" readOnly value={url} data-testid="share-url" />
            <button type="button" class="btn" onClick={copy}>{t("video.share.copy")}</button>
          </div>
        )}
        <p class="muted">{t("video.share.hint")}</p>
      </form>
    </Modal>
  );
}
