/** Address lines in the reader's language, from a landmark or the nearest named place. */
import { compass } from "../monitor/geo.ts";
import { type Lang, RESOURCES } from "../../lib/i18n/i18n.ts";
import type { NearestPlace, Place } from "./places.ts";

/** Closer than this to the place's point, the address is the place itself (no "3 km NE of"). */
export const NEAR_M = 1000;

/** Country names by language and code (Intl.DisplayNames is costly to make). */
const countryNames = new Map<string, string>();

/**
 * The geocoder's phrases filled in directly: i18next's interpolation took most of a lookup's
 * time, and an address line is made per alert and per list row.
 */
function phrase(lang: Lang, key: string, vars: Record<string, string | number>): string {
  // deno-lint-ignore no-explicit-any
  let node: any = RESOURCES[lang].geocoder;
  for (const part of key.split(".")) node = node?.[part];
  const template = typeof node === "string" ? node : key;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars[name] ?? ""));
}

/** The country's name in the language (Intl's CLDR names; the code when unknown). */
export function countryName(code: string, lang: Lang): string {
  if (!code) return "";
  const key = `${lang}:${code}`;
  let name = countryNames.get(key);
  if (name === undefined) {
    try {
      const names = new Intl.DisplayNames([lang === "zh" ? "zh-CN" : "en"], { type: "region" });
      name = names.of(code) ?? code;
    } catch {
      name = code;
    }
    countryNames.set(key, name);
  }
  return name;
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
  const km = p.distanceM / 1000;
  return phrase(lang, "near", {
    distance: phrase(lang, "km", { n: km < 10 ? km.toFixed(1) : Math.round(km) }),
    dir: phrase(lang, `dir.${compass(p.bearing)}`, {}),
    place,
  });
}

export function landmarkLine(name: string, lang: Lang): string {
  return phrase(lang, "atLandmark", { name });
}
