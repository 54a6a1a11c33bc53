/** Area car-finding on the monitor (business spec: range under 50 km). */
export const AREA_MAX_KM = 50;
export const AREA_DEFAULT_KM = 5;
/** Most devices one search lists (nearest first). */
export const AREA_MAX_RESULTS = 500;

export interface AreaHit {
  imei: string;
  name: string;
  /** One of the monitor's statuses (moving, idling, stopped, offline, ...). */
  status: string;
  lat: number;
  lng: number;
  distanceKm: number;
  gpsTime: number | null;
}
