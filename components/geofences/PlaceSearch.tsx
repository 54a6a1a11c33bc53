import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import { useDebounced } from "../accounts/hooks.ts";
import type { Zone } from "../../modules/geofences/model.ts";
import { matchZones, type PlaceHit, searchGeocoder } from "./places.ts";

interface Props {
  t: TFunction;
  /** Every zone of the account (landmarks, fences, black-car addresses), loaded on demand. */
  loadZones: () => Promise<Zone[]>;
  /** The geocoder's forward-search route, or null when the server has none. */
  geocoderPath: string | null;
  onPick: (hit: PlaceHit) => void;
}

/**
 * A search box over the map: the account's landmarks and fences by name at once, named
 * places from the geocoder after the typing settles. Arrow keys move, Enter picks.
 */
export function PlaceSearch({ t, loadZones, geocoderPath, onPick }: Props) {
  const [q, setQ] = useState("");
  const settled = useDebounced(q.trim());
  const [zones, setZones] = useState<Zone[] | null>(null);
  const [places, setPlaces] = useState<PlaceHit[]>([]);
  const [searching, setSearching] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLDivElement>(null);

  const ensureZones = () => {
    if (zones === null) loadZones().then(setZones, () => setZones([]));
  };
  useEffect(() => {
    let live = true;
    setPlaces([]);
    if (!geocoderPath || settled.length < 2) return;
    setSearching(true);
    searchGeocoder(geocoderPath, settled)
      .then((hits) => live && setPlaces(hits), () => {})
      .finally(() => live && setSearching(false));
    return () => {
      live = false;
    };
  }, [settled, geocoderPath]);
  useEffect(() => {
    const close = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, []);

  const hits = [...matchZones(q, zones ?? []), ...places];
  const pick = (hit: PlaceHit) => {
    setQ(hit.name);
    setOpen(false);
    onPick(hit);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((a) => hits.length ? (a + step + hits.length) % hits.length : 0);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (hits[active]) pick(hits[active]);
    } else if (e.key === "Escape") {
      setOpen(false);
    }
  };
  const showList = open && q.trim() !== "";

  return (
    <div class="gf-place" ref={box}>
      <input
        class="input"
        type="search"
        role="combobox"
        aria-expanded={showList}
        aria-controls="gf-place-list"
        aria-autocomplete="list"
        aria-label={t("geofences.places.search")}
        placeholder={t("geofences.places.search")}
        value={q}
        maxLength={80}
        onFocus={() => {
          ensureZones();
          setOpen(true);
        }}
        onInput={(e) => {
          ensureZones();
          setQ((e.target as HTMLInputElement).value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKey}
      />
      {showList && (
        <ul id="gf-place-list" class="gf-place-list" role="listbox">
          {hits.map((h, i) => (
            <li
              key={h.id}
              role="option"
              aria-selected={i === active}
              class={i === active ? "active" : undefined}
              onPointerEnter={() => setActive(i)}
              onClick={() => pick(h)}
            >
              <span class={`gf-place-kind kind-${h.kind}`}>{t(`geofences.places.${h.kind}`)}</span>
              <span class="gf-place-name">
                {h.name}
                {h.detail && <small class="muted">{h.detail}</small>}
              </span>
            </li>
          ))}
          {!hits.length && (
            <li class="muted gf-place-empty">
              {searching || zones === null
                ? t("geofences.places.searching")
                : t("geofences.places.noMatch", { q: q.trim() })}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
