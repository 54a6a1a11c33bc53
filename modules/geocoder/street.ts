/**
 * Street addresses from a Nominatim-compatible server (GEOCODER_URL): `/reverse?format=jsonv2`
 * answers `display_name`. Nominatim's usage policy allows one request a second and asks
 * clients to cache, so requests go through one queue at `ratePerSecond`, each with a timeout,
 * answers are cached (GeocoderStore), and a failing server is left alone for a while: callers
 * then get null and fall back to the embedded dataset.
 */
import type { Lang } from "../../lib/i18n/i18n.ts";
import { type GeocoderStore, roundE4 } from "./store.ts";
import { log } from "../../lib/log.ts";

const geoLog = log.area("geocoder");

export interface StreetOptions {
  /** Requests per second (Nominatim's policy: 1). */
  ratePerSecond?: number;
  /** One request's timeout. */
  timeoutMs?: number;
  /** After a failure the server is not asked again for this long. */
  pauseAfterFailureMs?: number;
  /** Lookups waiting for their turn at most; more are answered null (the dataset answers). */
  maxQueue?: number;
}

interface Job {
  lat: number;
  lng: number;
  lang: Lang;
  key: string;
  done: (text: string | null) => void;
  promise: Promise<string | null>;
}

export class StreetGeocoder {
  private readonly base: URL;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly pauseMs: number;
  private readonly maxQueue: number;
  private queue: Job[] = [];
  private pending = new Map<string, Job>();
  private running = false;
  private nextAt = 0;
  private pausedUntil = 0;
  readonly stats = { requests: 0, failures: 0, cacheHits: 0 };

  constructor(url: string, private readonly cache: GeocoderStore, opts: StreetOptions = {}) {
    this.base = new URL(url.endsWith("/") ? url : `${url}/`);
    this.intervalMs = 1000 / (opts.ratePerSecond ?? 1);
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.pauseMs = opts.pauseAfterFailureMs ?? 30_000;
    this.maxQueue = opts.maxQueue ?? 100;
  }

  /**
   * The street address of a point, or null (none known, server failing, queue full, or not
   * answered within `waitMs`; a late answer still lands in the cache for the next caller).
   */
  async lookup(lat: number, lng: number, lang: Lang, waitMs: number): Promise<string | null> {
    const cached = await this.cache.get(lang, lat, lng);
    if (cached) {
      this.stats.cacheHits++;
      return cached.text || null;
    }
    if (Date.now() < this.pausedUntil) return null;
    const key = `${lang}/${roundE4(lat)}/${roundE4(lng)}`;
    let job = this.pending.get(key);
    if (!job) {
      if (this.queue.length >= this.maxQueue) return null;
      let done!: (text: string | null) => void;
      const promise = new Promise<string | null>((r) => done = r);
      job = { lat, lng, lang, key, done, promise };
      this.pending.set(key, job);
      this.queue.push(job);
      this.run();
    }
    if (waitMs <= 0) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((r) => timer = setTimeout(() => r(null), waitMs));
    try {
      return await Promise.race([job.promise, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once every queued lookup has been answered (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending.values()].map((j) => j.promise));
  }

  /** Works through the queue, one request per interval. */
  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        const wait = this.nextAt - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const job = this.queue.shift()!;
        if (Date.now() < this.pausedUntil) {
          this.finish(job, null);
          continue;
        }
        const text = await this.request(job);
        // Counted from the answer, not from the send: then the server sees its requests at
        // least one interval apart however long the previous one travelled.
        this.nextAt = Date.now() + this.intervalMs;
        this.finish(job, text);
      }
    } finally {
      this.running = false;
    }
  }

  private finish(job: Job, text: string | null) {
    this.pending.delete(job.key);
    job.done(text);
  }

  /** One request; caches what the server said (also "no address"), null on failure. */
  private async request(job: Job): Promise<string | null> {
    const url = new URL("reverse", this.base);
    url.searchParams.set("format", "jsonv2");
    url.searchParams.set("lat", job.lat.toFixed(6));
    url.searchParams.set("lon", job.lng.toFixed(6));
    url.searchParams.set("zoom", "18");
    url.searchParams.set("accept-language", job.lang === "zh" ? "zh-CN,zh,en" : "en");
    this.stats.requests++;
    try {
      const res = await fetch(url, {
        headers: { "user-agent": "TrackingPlatform/1 (self-hosted fleet tracking)" },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      const body = await res.json() as { display_name?: unknown; error?: unknown };
      const text = typeof body.display_name === "string" ? body.display_name.trim() : "";
      // {"error": "Unable to geocode"} (open sea, no data) is an answer: cache it as none.
      if (!text && body.error === undefined) throw new Error("answer without display_name");
      await this.cache.set(job.lang, job.lat, job.lng, text);
      return text || null;
    } catch (e) {
      this.stats.failures++;
      this.pausedUntil = Date.now() + this.pauseMs;
      geoLog.warn(`${url.origin} failed (${(e as Error).message}); using the dataset`);
      // The queued lookups would wait for a server that is failing: answer them now.
      for (const j of this.queue.splice(0)) this.finish(j, null);
      return null;
    }
  }
}
