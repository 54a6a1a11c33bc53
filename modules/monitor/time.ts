/** Times in the user's time zone (an IANA name from the profile; UTC when unknown). */
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc.js";
import timezone from "dayjs/plugin/timezone.js";

dayjs.extend(utc);
dayjs.extend(timezone);

export function safeZone(tz: string | undefined | null): string {
  if (!tz) return "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return tz;
  } catch {
    return "UTC";
  }
}

export function formatTime(ms: number | null, tz: string, pattern = "YYYY-MM-DD HH:mm:ss"): string {
  if (ms === null || !Number.isFinite(ms)) return "—";
  return dayjs(ms).tz(safeZone(tz)).format(pattern);
}

/** "2026-11-21T08:00" in the zone → epoch ms (for datetime-local inputs). */
export function parseLocal(value: string, tz: string): number {
  return dayjs.tz(value, safeZone(tz)).valueOf();
}

/** Epoch ms → "YYYY-MM-DDTHH:mm" in the zone (datetime-local value). */
export function toLocalInput(ms: number, tz: string): string {
  return dayjs(ms).tz(safeZone(tz)).format("YYYY-MM-DDTHH:mm");
}
