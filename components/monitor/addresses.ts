/**
 * Addresses for the monitor's list rows and cards, asked in batches from the geocoder API
 * (/v3/new/geocoder/reverse) and kept per device and rounded position (≈ 100 m), so a parked
 * vehicle is asked once and a moving one again only after it moved on.
 */
import { api } from "../../lib/client/api.ts";
import type { Address } from "../../modules/geocoder/types.ts";
import { MAX_REVERSE_POINTS } from "../../modules/geocoder/types.ts";

const key = (imei: string, lat: number, lng: number) =>
  `${imei}@${lat.toFixed(3)},${lng.toFixed(3)}`;

export class AddressBook {
  private known = new Map<string, string>();
  /** The latest text per device, shown while its new position is being asked. */
  private last = new Map<string, string>();
  private wanted = new Map<string, { imei: string; lat: number; lng: number }>();
  private asked = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | 0 = 0;

  /** `changed` runs after a batch arrived (re-render). */
  constructor(private readonly changed: () => void, private readonly delayMs = 300) {}

  /** The address of a device at a point, asking for it if unknown ("" until it arrives). */
  get(imei: string, lat: number | null, lng: number | null): string {
    if (lat === null || lng === null) return "";
    const k = key(imei, lat, lng);
    const text = this.known.get(k);
    if (text !== undefined) return text;
    if (!this.asked.has(k)) {
      this.wanted.set(k, { imei, lat, lng });
      this.timer ||= setTimeout(() => this.flush(), this.delayMs);
    }
    return this.last.get(imei) ?? "";
  }

  private async flush(): Promise<void> {
    this.timer = 0;
    const batch = [...this.wanted].slice(0, MAX_REVERSE_POINTS);
    for (const [k] of batch) {
      this.wanted.delete(k);
      this.asked.add(k);
    }
    if (this.wanted.size) this.timer = setTimeout(() => this.flush(), this.delayMs);
    try {
      const { list } = await api<{ list: Address[] }>("/v3/new/geocoder/reverse", {
        points: batch.map(([, p]) => p),
      });
      list.forEach((a, i) => {
        const [k, p] = batch[i];
        this.known.set(k, a.text);
        this.last.set(p.imei, a.text);
      });
      this.changed();
    } catch {
      // Asked again on a later render.
      for (const [k] of batch) this.asked.delete(k);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = 0;
  }
}
