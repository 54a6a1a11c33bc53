/** Creates and lists public share links of one device (validity 1-720 whole hours). */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { SHARE_MAX_HOURS, SHARE_MIN_HOURS, validShareHours } from "../../modules/monitor/share.ts";
import type { Formatter } from "./format.ts";

interface LinkView {
  token: string;
  url: string;
  expiresAt: string;
  expired: boolean;
}

export function ShareDialog(
  { imei, name, fmt, t, onClose }: {
    imei: string;
    name: string;
    fmt: Formatter;
    t: TFunction;
    onClose: () => void;
  },
) {
  const [hours, setHours] = useState("24");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [links, setLinks] = useState<LinkView[] | null>(null);
  const [fresh, setFresh] = useState<LinkView | null>(null);

  const load = () =>
    api<LinkView[]>("/v3/new/monitor/share/list", { imei }).then(setLinks).catch((e) => {
      setLinks([]);
      toast((e as Error).message, "error");
    });
  useEffect(() => void load(), [imei]);

  const absolute = (url: string) => new URL(url, location.origin).href;
  const create = async (e: Event) => {
    e.preventDefault();
    const n = Number(hours);
    if (!/^\d+$/.test(hours.trim()) || !validShareHours(n)) {
      setError(t("monitor.share.hoursRule", { min: SHARE_MIN_HOURS, max: SHARE_MAX_HOURS }));
      return;
    }
    setError("");
    setBusy(true);
    try {
      const link = await api<LinkView>("/v3/new/monitor/share/create", { imei, hours: n });
      setFresh(link);
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(absolute(url));
      toast(t("monitor.share.copied"));
    } catch {
      toast(absolute(url), "info");
    }
  };
  const revoke = async (token: string) => {
    try {
      await api("/v3/new/monitor/share/revoke", { token });
      if (fresh?.token === token) setFresh(null);
      await load();
    } catch (err) {
      toast((err as Error).message, "error");
    }
  };

  return (
    <Modal title={t("monitor.share.title", { name })} onClose={onClose} closeLabel={t("ui.close")}>
      <form class="mon-share-form" onSubmit={create} noValidate>
        <label class={`field ${error ? "has-error" : ""}`}>
          <span class="field-label">{t("monitor.share.hours")}</span>
          <div class="mon-inline">
            <input
              name="hours"
              type="number"
              inputMode="numeric"
              min={SHARE_MIN_HOURS}
              max={SHARE_MAX_HOURS}
              step={1}
              value={hours}
              onInput={(e) =>
                setHours((e.target as HTMLInputElement).value)}
            />
            <button class="btn btn-primary" type="submit" disabled={busy}>
              {t("monitor.share.create")}
            </button>
          </div>
          {error ? <span class="field-error">{error}</span> : (
            <span class="field-hint">
              {t("monitor.share.hoursRule", { min: SHARE_MIN_HOURS, max: SHARE_MAX_HOURS })}
            </span>
          )}
        </label>
      </form>
      {fresh && (
        <div class="mon-share-fresh">
          <input class="input mono" readOnly value={absolute(fresh.url)} />
          <button
            type="button"
            class="btn"
            onClick={() => copy(fresh.url)}
          >
            {t("monitor.share.copy")}
          </button>
        </div>
      )}
      <h3 class="mon-subtitle">{t("monitor.share.existing")}</h3>
      {links === null
        ? <p class="muted">{t("ui.loading")}</p>
        : links.length === 0
        ? <p class="muted">{t("monitor.share.none")}</p>
        : (
          <ul class="mon-share-list">
            {links.map((l) => (
              <li key={l.token} class={l.expired ? "expired" : ""}>
                <span>
                  {l.expired ? t("monitor.share.expiredAt") : t("monitor.share.validUntil")}{" "}
                  {fmt.time(Date.parse(l.expiresAt))}
                </span>
                <span class="mon-row-actions">
                  {!l.expired && (
                    <button
                      type="button"
                      class="link-btn"
                      onClick={() => copy(l.url)}
                    >
                      {t("monitor.share.copy")}
                    </button>
                  )}
                  <button
                    type="button"
                    class="link-btn danger"
                    onClick={() =>
                      revoke(l.token)}
                  >
                    {t("monitor.share.revoke")}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
    </Modal>
  );
}
