/** Choose one device by name or IMEI from a long list (shows at most 50 matches). */
import { useMemo, useState } from "react";

export function DevicePicker(
  { devices, value, onChange, t, error }: {
    devices: { imei: string; name: string }[];
    value: string;
    onChange: (imei: string) => void;
    t: (k: string) => string;
    error?: string;
  },
) {
  const chosen = devices.find((d) => d.imei === value);
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const shown = text ?? (chosen ? `${chosen.name} (${chosen.imei})` : value);
  const matches = useMemo(() => {
    const q = (text ?? "").trim().toLowerCase();
    const out = [];
    for (const d of devices) {
      if (!q || d.imei.includes(q) || d.name.toLowerCase().includes(q)) out.push(d);
      if (out.length >= 50) break;
    }
    return out;
  }, [devices, text]);
  return (
    <label class={`field mon-picker ${error ? "has-error" : ""}`}>
      <span class="field-label">{t("monitor.playback.device")}</span>
      <input
        name="device"
        autocomplete="off"
        placeholder={t("monitor.list.search")}
        value={shown}
        onFocus={() => {
          setText("");
          setOpen(true);
        }}
        onBlur={() =>
          setTimeout(() => {
            setOpen(false);
            setText(null);
          }, 150)}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
      />
      {open && matches.length > 0 && (
        <ul class="mon-picker-list" role="listbox">
          {matches.map((d) => (
            <li
              key={d.imei}
              role="option"
              aria-selected={d.imei === value}
              data-imei={d.imei}
              onMouseDown={(e) => {
                e.preventDefault();
                onChange(d.imei);
                setOpen(false);
                setText(null);
              }}
            >
              <b>{d.name}</b>
              <span class="mono muted">{d.imei}</span>
            </li>
          ))}
        </ul>
      )}
      {error && <span class="field-error">{error}</span>}
    </label>
  );
}
