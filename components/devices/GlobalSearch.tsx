import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import type { DeviceRow } from "./types.ts";

interface Props {
  t: TFunction;
  onOpen: (imei: string) => void;
}

/** globalSearchEquipment over the caller's whole subtree; a hit opens the device's details. */
export function GlobalSearch({ t, onOpen }: Props) {
  const [q, setQ] = useState("");
  const [error, setError] = useState("");
  const [result, setResult] = useState<{ total: number; list: DeviceRow[] } | null>(null);
  const search = async () => {
    const kw = q.trim();
    setError("");
    if (/^\d+$/.test(kw) && (kw.length < 5 || kw.length > 15)) {
      return setError(t("devices.search.imeiDigits"));
    }
    if (!kw) return setResult(null);
    try {
      setResult(await api(`/v3/new/newEquipment/globalSearchEquipment`, { keyword: kw }));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <form
      class="global-search"
      onSubmit={(e) => {
        e.preventDefault();
        search();
      }}
    >
      <input
        id="global-search"
        class="input"
        type="search"
        maxLength={50}
        placeholder={t("devices.search.global")}
        aria-label={t("devices.search.global")}
        value={q}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
      />
      <button type="submit" class="btn" aria-label={t("devices.search.global")}>⌕</button>
      {(error || result) && (
        <div class="search-pop" role="listbox" aria-label={t("devices.search.globalTitle")}>
          {error && <div class="field-error">{error}</div>}
          {result && result.list.length === 0 && (
            <div class="muted">{t("devices.search.noResults")}</div>
          )}
          {result?.list.map((d) => (
            <button
              key={d.imei}
              type="button"
              role="option"
              class="search-hit"
              onClick={() => {
                setResult(null);
                onOpen(d.imei);
              }}
            >
              <strong>{d.deviceName}</strong>
              <span class="mono">{d.imei}</span>
              <span class="muted">{d.userAccount}</span>
            </button>
          ))}
          <button type="button" class="link-btn" onClick={() => (setResult(null), setError(""))}>
            ×
          </button>
        </div>
      )}
    </form>
  );
}
