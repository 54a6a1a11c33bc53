/**
 * Street addresses from the optional Nominatim server, cached in KV by rounded coordinates
 * (4 decimals ≈ 11 m) and language, so a parked fleet asks the server once per spot.
 *
 * Keys:
 *   ["geocoder", "street", lang, latE4, lngE4]   { text, at }   ("" = the server had none)
 */
import type { Lang } from "../../lib/i18n/i18n.ts";

/** A cached answer lives this long (streets rarely change; the server's policy asks to cache). */
const CACHE_MS = 30 * 86_400_000;

export interface CachedStreet {
  text: string;
  at: number;
}

export const roundE4 = (v: number) => Math.round(v * 1e4);

export class GeocoderStore {
  constructor(private readonly kv: Deno.Kv) {}

  private key(lang: Lang, lat: number, lng: number): Deno.KvKey {
    return ["geocoder", "street", lang, roundE4(lat), roundE4(lng)];
  }

  async get(lang: Lang, lat: number, lng: number): Promise<CachedStreet | null> {
    return (await this.kv.get<CachedStreet>(this.key(lang, lat, lng))).value;
  }

  async set(lang: Lang, lat: number, lng: number, text: string): Promise<void> {
    await this.kv.set(this.key(lang, lat, lng), { text, at: Date.now() }, { expireIn: CACHE_MS });
  }
}
