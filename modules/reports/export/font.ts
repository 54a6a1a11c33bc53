/**
 * The PDF's font: it must draw Chinese as well as Latin text. First Debian's Noto Sans CJK
 * (package fonts-noto-cjk; a .ttc collection, so the face is named), else Noto Sans SC from
 * the npm package @expo-google-fonts/noto-sans-sc (a plain TTF fontkit reads; fetched by
 * Deno on first use, so a site without the Debian package still gets PDFs), else the
 * catalogue's pdfFontMissing naming the package to install.
 */
import { BizError } from "../../../lib/errors.ts";

export interface PdfFont {
  path: string;
  /** The face inside a collection (.ttc); null for a single-font file. */
  face: string | null;
}

/** Debian's fonts-noto-cjk (bookworm and later, then older releases' path). */
export const SYSTEM_FONTS: PdfFont[] = [
  { path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", face: "NotoSansCJKsc-Regular" },
  { path: "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc", face: "NotoSansCJKsc-Regular" },
];

/** Computed so Deno fetches the (57 MB) package only when a PDF needs it. */
export const NPM_FONT_PACKAGE = ["npm:@expo-google-fonts", "noto-sans-sc@0.4.3"].join("/");
const NPM_FONT_FILE = "400Regular/NotoSansSC_400Regular.ttf";

let found: Promise<PdfFont> | null = null;

/** The font PDFs use (looked up once per process; a failed look-up is tried again). */
export function pdfFont(): Promise<PdfFont> {
  found ??= findFont(SYSTEM_FONTS, NPM_FONT_PACKAGE).catch((e) => {
    found = null;
    throw e;
  });
  return found;
}

export async function findFont(system: PdfFont[], npmPackage: string | null): Promise<PdfFont> {
  for (const f of system) {
    if (await isFile(f.path)) return f;
  }
  if (npmPackage) {
    try {
      // Loading the package's manifest makes Deno install it; its files then sit beside it.
      await import(`${npmPackage}/package.json`, { with: { type: "json" } });
      const url = import.meta.resolve(`${npmPackage}/${NPM_FONT_FILE}`);
      if (url.startsWith("file:")) {
        const path = decodeURIComponent(new URL(url).pathname);
        if (await isFile(path)) return { path, face: null };
      }
    } catch { /* not reachable here (offline, compiled binary): the refusal below */ }
  }
  throw new BizError("pdfFontMissing");
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
