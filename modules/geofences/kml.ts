import { ArchiveInvalid, KMZ_LIMITS, unzipSafe } from "../../lib/archive.ts";
import type { LatLng, Shape } from "./geometry.ts";

/** One placemark read from a KML file, before validation. */
export interface KmlItem {
  name: string;
  description: string;
  shape: Shape | null;
  /** Why the placemark could not be read as a shape (i18n key under geofences.import). */
  problem?: "noShape" | "badCoordinates";
}

/** Radius for a Point placemark without an ExtendedData "radius". */
export const DEFAULT_POINT_RADIUS_M = 500;

const decoder = new TextDecoder();

/**
 * A KMZ is a zip holding doc.kml (or any .kml); a KML is the XML itself. The zip is read
 * within KMZ_LIMITS (a zip bomb is refused with "archiveTooLarge" while inflating).
 */
export function kmlText(fileName: string, bytes: Uint8Array): string | null {
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (!isZip) {
    const text = decoder.decode(bytes);
    return /<kml[\s>]/i.test(text) ? text : null;
  }
  try {
    const files = unzipSafe(bytes, KMZ_LIMITS, (name) => name.toLowerCase().endsWith(".kml"));
    const name = [...files.keys()].sort((a, b) =>
      Number(b.endsWith("doc.kml")) - Number(a.endsWith("doc.kml"))
    )[0];
    return name ? decoder.decode(files.get(name)) : null;
  } catch (e) {
    if (e instanceof ArchiveInvalid) return null;
    throw e;
  } finally {
    void fileName;
  }
}

const tag = (xml: string, name: string) =>
  xml.match(new RegExp(`<(?:\\w+:)?${name}[^>]*>([\\s\\S]*?)</(?:\\w+:)?${name}>`, "i"))?.[1];

function unescape(s: string): string {
  return s.replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, "$1").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&").trim();
}

function coordinates(text: string): LatLng[] | null {
  const pts: LatLng[] = [];
  for (const tuple of text.trim().split(/\s+/)) {
    const [lng, lat] = tuple.split(",").map(Number);
    if (!Number.isFinite(lng) || !Number.isFinite(lat)) return null;
    pts.push({ lat, lng });
  }
  return pts;
}

/**
 * Reads the placemarks of a KML document: polygons (outer ring) become polygon zones,
 * points become circles (radius from ExtendedData "radius", else 500 m). Parsed with
 * patterns rather than a DOM: Deno has no DOMParser and KML placemarks are flat.
 */
export function parseKml(xml: string): KmlItem[] {
  const items: KmlItem[] = [];
  for (const m of xml.matchAll(/<(?:\w+:)?Placemark[\s>][\s\S]*?<\/(?:\w+:)?Placemark>/gi)) {
    const pm = m[0];
    const name = unescape(tag(pm, "name") ?? "").slice(0, 50);
    const description = unescape(tag(pm, "description") ?? "").slice(0, 500);
    const polygon = tag(pm, "Polygon");
    const point = tag(pm, "Point");
    if (polygon) {
      const ring = tag(tag(polygon, "outerBoundaryIs") ?? polygon, "coordinates");
      const points = ring ? coordinates(ring) : null;
      items.push(
        points
          ? { name, description, shape: { kind: "polygon", points } }
          : { name, description, shape: null, problem: "badCoordinates" },
      );
    } else if (point) {
      const c = coordinates(tag(point, "coordinates") ?? "");
      const radiusData = pm.match(/<Data\s+name="radius"[^>]*>\s*<value>([^<]+)<\/value>/i)?.[1];
      const radius = radiusData ? Math.round(Number(radiusData)) : DEFAULT_POINT_RADIUS_M;
      items.push(
        c?.length === 1 && Number.isFinite(radius)
          ? { name, description, shape: { kind: "circle", center: c[0], radius } }
          : { name, description, shape: null, problem: "badCoordinates" },
      );
    } else {
      items.push({ name, description, shape: null, problem: "noShape" });
    }
  }
  return items;
}
