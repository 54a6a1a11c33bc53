/** Address lines in the reader's language, from a landmark or the nearest named place. */
import { compass } from "../monitor/geo.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { NearestPlace, Place } from "./places.ts";

/** Closer than this to the place's point, the address is the place itself (no "3 km NE of"). */
export const NEAR_M = 1000;

const countryNames = new Map<Lang, Intl.DisplayNames>();

/** The country's name in the language (Intl's CLDR names; the code when unknown). */
export function countryName(code: string, lang: Lang): string {
  if (!code) return "";
  let names = countryNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang === "zh" ? "zh-CN" : "en"], { type: "region" });
    countryNames.set(lang, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * "Gangxia, Shenzhen, Guangdong, China" (zh: largest first, "中国 Guangdong Shenzhen Gangxia"):
 * the place, its divisions and its country, a part repeating the one before it dropped
 * ("Chongqing, Chongqing, Chongqing" is one Chongqing).
 */
export function placeLine(p: Place, lang: Lang): string {
  const parts: string[] = [];
  for (const part of [p.name, p.admin2, p.admin1, countryName(p.country, lang)]) {
    const prev = parts.at(-1);
    if (part && (!prev || !sameName(prev, part))) parts.push(part);
  }
  return lang === "zh" ? parts.reverse().join(" ") : parts.join(", ");
}

/**
 * The next part only repeats the one before: equal, or its division-suffixed form ("Chongqing"
 * then "Chongqing Shi"); "Hawaii County" then "Hawaii" are both kept.
 */
function sameName(before: string, next: string): boolean {
  const x = before.toLowerCase(), y = next.toLowerCase();
  return x === y || y.startsWith(`${x} `);
}

/** The address of a point from its nearest place: the place, or "3.2 km NE of <place>". */
export function nearLine(p: NearestPlace, lang: Lang): string {
  const place = placeLine(p, lang);
  if (p.distanceM < NEAR_M) return place;
  const t = translator(lang);
  const km = p.distanceM / 1000;
  return t("geocoder.near", {
    distance: t("geocoder.km", { n: km < 10 ? km.toFixed(1) : Math.round(km) }),
    dir: t(`geocoder.dir.${compass(p.bearing)}`),
    place,
  });
}

export function landmarkLine(name: string, lang: Lang): string {
  return translator(lang)("geocoder.atLandmark", { name });
}
