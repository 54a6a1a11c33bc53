/**
 * White-label configuration per host name (spec console §3 "Domain configuration") and the
 * limits of uploaded images. Shared by the server and the browser: constants and types only.
 */
export interface DomainConfig {
  host: string;
  domainTitle: string;
  defaultLanguage: "en" | "zh";
  themeColor: string;
  hoverColor: string;
  selectedColor: string;
  view: string;
  resourceDomain: string;
  /** Paths under tracker/domain (attr1 under tracker/domain/background); "" when unset. */
  attr1: string;
  twoDimensionalCodeImage: string;
  domainLogin: string;
  loginPageIllustration: string;
  demoPageIllustration: string;
  siteIcon: string;
  updatedAt: string;
}

export const DEFAULT_DOMAIN: DomainConfig = {
  host: "*",
  domainTitle: "Tracking Platform",
  defaultLanguage: "en",
  themeColor: "#3b7aff",
  hoverColor: "#2f62cc",
  selectedColor: "#e8f0ff",
  view: "newlogin",
  resourceDomain: "",
  attr1: "",
  twoDimensionalCodeImage: "",
  domainLogin: "",
  loginPageIllustration: "",
  demoPageIllustration: "",
  siteIcon: "",
  updatedAt: "",
};

/** Spec: an image field is the resource domain plus a path under tracker/domain, or "". */
export const IMAGE_FIELDS = [
  "attr1",
  "twoDimensionalCodeImage",
  "domainLogin",
  "loginPageIllustration",
  "demoPageIllustration",
  "siteIcon",
] as const;
export type ImageField = typeof IMAGE_FIELDS[number];

/** The folder of a field under the resource domain (spec: attr1 under tracker/domain/background). */
export const imageFolder = (field: ImageField) =>
  field === "attr1" ? "tracker/domain/background" : "tracker/domain";

/**
 * The full address of an image field: the resource domain, its folder and the path. An empty
 * resource domain means this server (the address then starts at its root).
 */
export function imageUrl(config: DomainConfig, field: ImageField, origin = ""): string {
  const path = config[field];
  if (!path) return "";
  const base = (config.resourceDomain || origin).replace(/\/$/, "");
  return `${base}/${imageFolder(field)}/${path.replace(/^\//, "")}`;
}

/** Image types accepted for upload, recognised by their first bytes (never SVG: it can script). */
export const DOMAIN_IMAGE_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
} as const;
export type DomainImageType = keyof typeof DOMAIN_IMAGE_TYPES;
/** File name extension of each type. */
export const DOMAIN_IMAGE_EXT: Record<DomainImageType, string> = {
  png: "png",
  jpeg: "jpg",
  gif: "gif",
  webp: "webp",
  ico: "ico",
};
/** What the refusal names as accepted. */
export const DOMAIN_IMAGE_TYPE_NAMES = "PNG, JPEG, GIF, WebP, ICO";
/** A login background is the largest image; 2 MB keeps the login page quick. */
export const MAX_DOMAIN_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_DOMAIN_IMAGE_LABEL = "2 MB";
/** Width and height at most this (a 4K background fits; decompression bombs do not). */
export const MAX_DOMAIN_IMAGE_SIDE = 4096;
/** An uploaded image's name: a random id and the extension of its real type. */
export const UPLOADED_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp|ico)$/;
