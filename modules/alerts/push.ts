/** Spec §9: the same alarm is pushed at most 30 times per hour per device. */
export const MAX_PUSHES_PER_HOUR = 30;
const HOUR_MS = 3_600_000;

/**
 * Decides whether an alert may be pushed (pop-up, mail, webhook): not within the silence
 * time after the last push of the same alarm of the device, and at most 30 an hour.
 * Alerts that are not pushed are still recorded in the alert centre.
 */
export class PushGate {
  /** "imei|type" → push times within the last hour, oldest first. */
  private recent = new Map<string, number[]>();

  allow(imei: string, type: string, time: number, silenceMinutes: number): boolean {
    const key = `${imei}|${type}`;
    const times = (this.recent.get(key) ?? []).filter((t) => time - t < HOUR_MS);
    const last = times[times.length - 1];
    if (last !== undefined && time - last < silenceMinutes * 60_000) return false;
    if (times.length >= MAX_PUSHES_PER_HOUR) return false;
    times.push(time);
    this.recent.set(key, times);
    return true;
  }

  /** Drops entries older than an hour (called by the process every few minutes). */
  prune(now = Date.now()): void {
    for (const [k, times] of this.recent) {
      if (!times.length || now - times[times.length - 1] >= HOUR_MS) this.recent.delete(k);
    }
  }
}

/**
 * The monthly quota of mail and webhook pushes (FREE_PUSHES_PER_MONTH per account): a push
 * beyond it costs a credit, and without credits it is skipped. Filled by the composition root
 * with modules/credits; absent (tests that build delivery by hand), pushes are not metered.
 */
export interface PushAllowance {
  takePush(userId: string, channel: "mail" | "webhook"): Promise<"free" | "paid" | "skipped">;
}

/** Alert SMS through the SMS gateway, each paid with credits (modules/credits). */
export interface AlertSms {
  sendSms(userId: string, to: string, text: string): Promise<string>;
}
