/**
 * The embeddable map (/iframe, spec console §2): read-only embed keys of an account and the
 * origins allowed to frame its pages. Browser code imports this file only.
 */
export const EMBED_MAX_KEYS = 5;
export const EMBED_MAX_ORIGINS = 10;
/** Most devices one embedded map shows (the account's own devices, in list order). */
export const EMBED_MAX_DEVICES = 2000;
/** How often the embedded map asks for fresh positions. */
export const EMBED_REFRESH_MS = 15_000;

export interface EmbedKey {
  key: string;
  label: string;
  createdAt: string;
}

/** One account's embed settings: its keys and who may frame /iframe pages of it. */
export interface EmbedSettings {
  origins: string[];
  keys: EmbedKey[];
}

/**
 * An origin as a frame-ancestors source: scheme http(s), a host, an optional port, nothing
 * else (no path, no wildcard but a leading "*." on the host); null when it is not one.
 */
export function normalizeOrigin(value: string): string | null {
  const v = value.trim().replace(/\/$/, "");
  const m = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(:\d{1,5})?$/i.exec(v);
  if (!m || (m[4] && +m[4].slice(1) > 65535)) return null;
  return `${m[1].toLowerCase()}://${m[2] ?? ""}${m[3].toLowerCase()}${m[4] ?? ""}`;
}

/** The frame-ancestors directive: this site and the origins the owner set. */
export function frameAncestors(origins: readonly string[]): string {
  return ["frame-ancestors 'self'", ...origins].join(" ");
}

/** The snippet an owner pastes into another site. */
export function embedSnippet(base: string, key: string): string {
  return `<iframe src="${base}/iframe?key=${key}" width="800" height="500" style="border:0" loading="lazy"></iframe>`;
}
