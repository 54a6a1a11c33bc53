/** Provider and map type pickers (spec §7: four providers; simplified, standard, hybrid, satellite). */
import { type ReactNode, useEffect, useState } from "react";
import type { BaseMap, MapSettings } from "./basemap.ts";
import {
  type MapType,
  provider,
  type ProviderId,
  PROVIDERS,
} from "../../modules/monitor/providers.ts";

export function MapToolbar(
  { providerId, mapType, onChange, noGoogleKey, t, children }: {
    providerId: ProviderId;
    mapType: MapType;
    onChange: (p: ProviderId, type: MapType) => void;
    /** Neither the user nor a sharing parent has a Google key (tiles would be refused). */
    noGoogleKey?: boolean;
    t: (k: string) => string;
    children?: ReactNode;
  },
) {
  const types = Object.keys(provider(providerId).types) as MapType[];
  return (
    <div class="mon-toolbar">
      <select
        aria-label={t("monitor.map.provider")}
        value={providerId}
        onChange={(e) => {
          const p = (e.target as HTMLSelectElement).value as ProviderId;
          onChange(p, provider(p).types[mapType] ? mapType : "standard");
        }}
      >
        {PROVIDERS.map((p) => (
          <option key={p.id} value={p.id}>{t(`monitor.map.providers.${p.id}`)}</option>
        ))}
      </select>
      {types.length > 1 && (
        <select
          aria-label={t("monitor.map.type")}
          value={mapType}
          onChange={(e) => onChange(providerId, (e.target as HTMLSelectElement).value as MapType)}
        >
          {types.map((ty) => <option key={ty} value={ty}>{t(`monitor.map.types.${ty}`)}</option>)}
        </select>
      )}
      {children}
      {noGoogleKey && providerId === "Google" && (
        <span class="mon-toolbar-note" role="note">{t("monitor.map.googleNoKey")}</span>
      )}
    </div>
  );
}

/** The user's last provider choice survives reloads (per browser). */
export function savedProvider(fallback: ProviderId, fallbackType: MapType): [ProviderId, MapType] {
  try {
    const raw = JSON.parse(localStorage.getItem("tp.monitor.map") ?? "null");
    if (raw && PROVIDERS.some((p) => p.id === raw[0])) return [raw[0], raw[1] ?? "standard"];
  } catch { /* ignore */ }
  return [fallback, fallbackType];
}

export function saveProvider(p: ProviderId, type: MapType): void {
  try {
    localStorage.setItem("tp.monitor.map", JSON.stringify([p, type]));
  } catch { /* private mode */ }
}

/**
 * The provider and map type shown on a map: the user's setting, or what was last chosen in
 * this browser; applied to the map whenever it changes. Spread the result into MapToolbar.
 */
export function useMapProvider(settings: MapSettings, base: { current: BaseMap | null }) {
  const [[providerId, mapType], set] = useState<[ProviderId, MapType]>([
    settings.provider,
    settings.mapType,
  ]);
  useEffect(() => set(savedProvider(settings.provider, settings.mapType)), []);
  useEffect(() => base.current?.setProvider(providerId, mapType), [providerId, mapType]);
  return {
    providerId,
    mapType,
    noGoogleKey: !settings.googleKey,
    onChange: (p: ProviderId, type: MapType) => {
      set([p, type]);
      saveProvider(p, type);
    },
  };
}
