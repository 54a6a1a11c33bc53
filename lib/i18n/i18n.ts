import i18next, { type TFunction } from "i18next";
import { RESOURCES } from "./resources.ts";

export const LANGUAGES = ["en", "zh"] as const;
export type Lang = typeof LANGUAGES[number];
export const DEFAULT_LANG: Lang = "en";
export const LOCALE_COOKIE = "locale";
/** Spec §9: the locale cookie lives 360 days. */
export const LOCALE_COOKIE_MAX_AGE = 360 * 24 * 3600;

export { RESOURCES };

const instance = i18next.createInstance();
await instance.init({
  resources: { en: { translation: RESOURCES.en }, zh: { translation: RESOURCES.zh } },
  lng: DEFAULT_LANG,
  fallbackLng: DEFAULT_LANG,
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a stored or browser value like "zh-CN" to a supported language. */
export function normalizeLang(
  value: string | undefined | null,
  fallback: Lang = DEFAULT_LANG,
): Lang {
  if (!value) return fallback;
  const short = value.toLowerCase().slice(0, 2);
  return isLang(short) ? short : fallback;
}

export function translator(lang: Lang): TFunction {
  return instance.getFixedT(lang);
}
