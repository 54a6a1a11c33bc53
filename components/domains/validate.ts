/** Client checks mirroring domainBody in modules/domains/routes.ts. */
import {
  type Check,
  length,
  optional,
  pattern,
  rawPattern,
  required,
} from "../accounts/validate.ts";

const color: Check[] = [rawPattern((v) => /^#[0-9a-fA-F]{6}$/.test(v), "validation.colorForm")];
const imagePath: Check[] = [
  length(0, 300),
  pattern((v) => /^[^<>"'\s]*$/.test(v), "validation.pathForm"),
];

export const IMAGE_FIELDS = [
  "domainLogin",
  "siteIcon",
  "attr1",
  "loginPageIllustration",
  "demoPageIllustration",
  "twoDimensionalCodeImage",
] as const;
export type ImageField = typeof IMAGE_FIELDS[number];

export const COLOR_FIELDS = ["themeColor", "hoverColor", "selectedColor"] as const;

export const RULES = {
  host: [
    required,
    length(1, 253),
    pattern((v) => /^(\*|[a-zA-Z0-9.-]+)$/.test(v), "validation.hostForm"),
  ],
  domainTitle: [required, length(1, 60)],
  themeColor: color,
  hoverColor: color,
  selectedColor: color,
  view: [length(0, 30)],
  resourceDomain: [
    length(0, 200),
    optional(pattern((v) => /^https?:\/\/[^\s<>"']+$/.test(v), "validation.urlForm")),
  ],
  ...Object.fromEntries(IMAGE_FIELDS.map((f) => [f, imagePath])) as Record<ImageField, Check[]>,
} satisfies Record<string, Check[]>;
