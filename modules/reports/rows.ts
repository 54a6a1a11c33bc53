/** The API's units for report rows, and the addresses of a page's rows. */
import type { Device } from "../devices/model.ts";
import type { ReportQuery, ReportSources, Row } from "./context.ts";

export const iso = (ms: number): string => new Date(ms).toISOString();
/** Whole seconds between two epoch-ms times. */
export const seconds = (from: number, to: number): number => Math.round((to - from) / 1000);
/** km to the metre. */
export const km = (v: number): number => Math.round(v * 1000) / 1000;
/** km/h to a tenth. */
export const kmh = (v: number): number => Math.round(v * 10) / 10;

export const deviceCells = (d: Device) => ({ imei: d.imei, deviceName: d.deviceName });

/** A row field to fill with the address of a point. */
export interface Place {
  row: Row;
  field: string;
  lat: number;
  lng: number;
  /** The device's owner (whose landmarks come first). */
  userId: string;
}

/**
 * Writes the address of each place into its row (the device owner's landmarks first, then
 * the viewer's, then the street server or the place dataset): called for one page's rows only,
 * in one batch, so a page costs one geocoder wait whatever its size.
 */
export async function fillAddresses(
  s: Pick<ReportSources, "geocoder">,
  q: Pick<ReportQuery, "lang" | "viewerId">,
  places: Place[],
): Promise<void> {
  if (!places.length) return;
  const found = await s.geocoder.describeMany(
    places.map((p) => ({ lat: p.lat, lng: p.lng, owners: [p.userId, q.viewerId] })),
    q.lang,
  );
  places.forEach((p, i) => (p.row[p.field] = found[i].text));
}
