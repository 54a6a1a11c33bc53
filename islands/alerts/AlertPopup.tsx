import { useEffect, useRef, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { alertDetail, formatTime } from "../../components/alerts/format.ts";
import { alarmMapUrl } from "../../modules/monitor/alarm_link.ts";

interface Popup {
  id: string;
  imei: string;
  deviceName: string;
  type: string;
  time: number;
  speed: number | null;
  lat: number | null;
  lng: number | null;
  address?: string;
  fenceName?: string;
  detail?: Record<string, string | number>;
}

/** At most this many pop-ups stay on screen; older ones drop off. */
const MAX_VISIBLE = 4;
const AUTO_CLOSE_MS = 30_000;
const POLL_MS = 4000;

/** A short two-tone beep made with WebAudio (no audio file to ship). */
function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.connect(gain).connect(ctx.destination);
    osc.frequency.setValueAtTime(880, ctx.currentTime);
    osc.frequency.setValueAtTime(660, ctx.currentTime + 0.18);
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
    osc.onended = () => ctx.close();
  } catch {
    // Browsers block audio before the first user gesture; the pop-up still shows.
  }
}

/**
 * Live alert pop-ups in every console page: polls the pushed alerts (only the
 * types the user subscribed, after the push limit and silence time) and plays the alarm
 * sound when the user's settings ask for it.
 */
function AlertPopup({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [items, setItems] = useState<Popup[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const close = (id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setItems((xs) => xs.filter((x) => x.id !== id));
  };
  useEffect(() => {
    // Polling rather than a stream: a console tab must not hold one of the browser's few
    // connections per host open for pop-ups.
    let seq: number | null = null;
    let stopped = false;
    const poll = async () => {
      try {
        const r = await api<{ seq: number; sound: boolean; list: Popup[] }>(
          `/v3/new/alarm/popups${seq === null ? "" : `?after=${seq}`}`,
        );
        if (stopped) return;
        const fresh = seq === null ? [] : r.list;
        seq = r.seq;
        if (!fresh.length) return;
        setItems((xs) => [...fresh.reverse(), ...xs].slice(0, MAX_VISIBLE));
        for (const a of fresh) {
          timers.current.set(
            a.id,
            setTimeout(() => close(a.id), AUTO_CLOSE_MS),
          );
        }
        if (r.sound) beep();
      } catch {
        // The next round tries again; a lost session is handled by the API client.
      }
    };
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  if (!items.length) return null;
  return (
    <div class="alert-popups" role="status" aria-live="assertive">
      {items.map((a) => (
        <div key={a.id} class={`alert-popup ac-${a.type}`}>
          <button
            type="button"
            class="icon-btn"
            aria-label={t("ui.close")}
            onClick={() => close(a.id)}
          >
            ×
          </button>
          <div class="alert-popup-type">{t(`alerts.type.${a.type}`)}</div>
          <div class="alert-popup-device">
            {a.deviceName} <span class="muted mono">{a.imei}</span>
          </div>
          <div class="muted">{formatTime(a.time)} · {alertDetail(t, a)}</div>
          <div class="alert-popup-actions">
            <a href={alarmMapUrl(a)}>{t("alerts.center.map")}</a>
            <a href="/alertCenter">{t("alerts.center.title")}</a>
          </div>
        </div>
      ))}
    </div>
  );
}

export default island("alerts/AlertPopup", AlertPopup);
