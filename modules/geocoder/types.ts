/**
 * Browser-facing shapes of the geocoder (modules/geocoder): what the reverse and search
 * routes answer, and what alerts, the monitor and reports carry as an address.
 */

/** Where an address came from: the account's landmark, a street-address server, the dataset. */
export type AddressSource = "landmark" | "street" | "place";

/** One reverse-geocoded point, in the caller's language. */
export interface Address {
  lat: number;
  lng: number;
  /** The line to show: "At Depot Futian", "Gangxia, Shenzhen, Guangdong, China", "3 km NE of …". */
  text: string;
  source: AddressSource;
  /** The landmark the point is inside (source "landmark"). */
  landmarkId?: string;
  /** ISO 3166-1 alpha-2 of the nearest named place ("" when unknown). */
  country: string;
  /** Metres from the nearest named place (0 for landmark and street answers). */
  distanceM: number;
}

/** A place the search route offers (geofence editor, map search). */
export interface PlaceHit {
  kind: "landmark" | "place";
  name: string;
  /** Name with its region and country ("Shenzhen, Guangdong, China"). */
  text: string;
  lat: number;
  lng: number;
  landmarkId?: string;
}

/** Most points one reverse call takes. */
export const MAX_REVERSE_POINTS = 200;
/** Most hits one search answers. */
export const MAX_SEARCH_HITS = 20;
