import { DEFAULT_DOMAIN, type DomainConfig, imageUrl } from "../../modules/domains/model.ts";
import type { ImageField } from "./validate.ts";

export { DEFAULT_DOMAIN };
export type { DomainConfig };

/** What the form edits: every saved field of a host configuration, as text. */
export type DomainValues = Omit<DomainConfig, "updatedAt" | "defaultLanguage"> & {
  defaultLanguage: string;
};

export function toValues(config: DomainConfig): DomainValues {
  const { updatedAt: _u, ...values } = config;
  return values;
}

/**
 * The full address an image path stands for (resource domain + tracker/domain/...), or "".
 * `origin` stands in for an empty resource domain (this server).
 */
export function previewUrl(values: DomainValues, field: ImageField, origin = ""): string {
  return imageUrl({ ...values, updatedAt: "" } as DomainConfig, field, origin);
}

/** This server's origin in the browser ("" while rendering on the server). */
export const browserOrigin = () => typeof document === "undefined" ? "" : location.origin;

/** The save body: trimmed text, as the server stores it. */
export function toBody(values: DomainValues): Omit<DomainConfig, "updatedAt"> {
  const trimmed = Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? v.trim() : v]),
  );
  // An empty login view falls back to the server's default ("newlogin").
  if (!trimmed.view) delete trimmed.view;
  return trimmed as Omit<DomainConfig, "updatedAt">;
}
