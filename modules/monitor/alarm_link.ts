/**
 * "Show on map" from an alert opens the monitor at the alarm's place: the alert's stored
 * position, time, type and address travel in the link (/monitorObject?imei=…&alarmLat=…), so
 * the map marks where the alarm happened beside where the vehicle is now. Pure: the alert
 * centre builds the link, the monitor page reads it.
 */

export interface AlarmPlace {
  lat: number;
  lng: number;
  /** Epoch ms of the alarm (0 when unknown). */
  time: number;
  type: string;
  address: string;
}

/** The monitor link of an alert; without a position, just the vehicle (as before). */
export function alarmMapUrl(a: {
  imei: string;
  lat: number | null;
  lng: number | null;
  time: number;
  type: string;
  address?: string;
}): string {
  const q = new URLSearchParams({ imei: a.imei });
  if (a.lat !== null && a.lng !== null) {
    q.set("alarmLat", String(a.lat));
    q.set("alarmLng", String(a.lng));
    q.set("alarmTime", String(a.time));
    q.set("alarmType", a.type);
    if (a.address) q.set("alarmAddress", a.address);
  }
  return `/monitorObject?${q}`;
}

/** Reads the alarm from the page's query; null when the link carries none or a bad one. */
export function alarmFromQuery(q: URLSearchParams): AlarmPlace | null {
  if (!q.has("alarmLat") || !q.has("alarmLng")) return null;
  const lat = Number(q.get("alarmLat")), lng = Number(q.get("alarmLng"));
  const time = Number(q.get("alarmTime"));
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return {
    lat,
    lng,
    time: Number.isFinite(time) ? time : 0,
    type: (q.get("alarmType") ?? "").slice(0, 40),
    address: (q.get("alarmAddress") ?? "").slice(0, 300),
  };
}
