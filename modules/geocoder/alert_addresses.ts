/**
 * The spec's alert `address`. The gateway and the alert engine write it with the alert when
 * they raise it (addressNow: the owner's landmark or the embedded dataset, synchronous, in
 * the owner's language). This subscriber completes what that could not: an alert raised
 * while the dataset was still loading, in a language not yet known, or — with GEOCODER_URL —
 * the street address, which takes a rate-limited request and is written once it arrives.
 */
import type { AccountLookup } from "../accounts/model.ts";
import type { AlertRecord, AlertRecordWriter } from "../alerts/types.ts";
import type { AlertRaised } from "../alerts/events.ts";
import { type Lang, normalizeLang } from "../../lib/i18n/i18n.ts";
import type { Geocoder } from "./service.ts";
import { log } from "../../lib/log.ts";

const geoLog = log.area("geocoder");

/** A street address for a stored alert may wait this long for its turn at the server. */
const STREET_WAIT_MS = 60_000;
/** Languages of accounts are re-read after this long (a changed profile language). */
const LANG_TTL_MS = 10 * 60_000;

export class AlertAddresses {
  private langs = new Map<string, { lang: Lang; at: number }>();
  private inflight = new Set<Promise<void>>();
  /** Off until start(). */
  private running = false;

  constructor(
    private readonly d: {
      alerts: Pick<AlertRecordWriter, "setAddress">;
      geocoder: Geocoder;
      accounts: AccountLookup;
    },
  ) {}

  /** The synchronous address for a raised alert (undefined while the dataset loads). */
  addressNow = (lat: number, lng: number, userId: string): string | undefined => {
    const known = this.langs.get(userId);
    return this.d.geocoder.describeNow(lat, lng, userId, known?.lang ?? "en")?.text || undefined;
  };

  start(): void {
    this.running = true;
  }

  stop(): void {
    this.running = false;
  }

  /** The handler of raised alerts (app/position_pipeline.ts): completes their addresses. */
  handle = (ev: AlertRaised): void => {
    if (this.running) this.complete(ev.alert);
  };

  /** Resolves once every address being completed is written (tests). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.all([...this.inflight]);
  }

  private complete(a: AlertRecord): void {
    if (a.lat === null || a.lng === null) return;
    const known = this.langs.get(a.userId);
    const fresh = known && Date.now() - known.at < LANG_TTL_MS;
    if (a.address && fresh && !this.d.geocoder.hasStreet) return;
    const job = this.fill(a).catch((e) => geoLog.error("alert address failed", e))
      .finally(() => this.inflight.delete(job));
    this.inflight.add(job);
  }

  private async fill(a: AlertRecord): Promise<void> {
    const lang = await this.langOf(a.userId);
    const found = await this.d.geocoder.describe(a.lat!, a.lng!, a.userId, lang, STREET_WAIT_MS);
    if (found.text && found.text !== a.address) {
      await this.d.alerts.setAddress(a, found.text);
      a.address = found.text;
    }
  }

  private async langOf(userId: string): Promise<Lang> {
    const known = this.langs.get(userId);
    if (known && Date.now() - known.at < LANG_TTL_MS) return known.lang;
    const account = await this.d.accounts.get(userId);
    const lang = normalizeLang(account?.language);
    this.langs.set(userId, { lang, at: Date.now() });
    return lang;
  }
}
