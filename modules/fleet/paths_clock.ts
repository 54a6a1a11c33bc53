/**
 * Local minute of day and ISO weekday of an instant in an IANA time zone, for the routes'
 * effective windows. The zone's offset is worked out once per zone and quarter hour (offsets
 * change on quarter hours at the finest), so the per-position check does no Intl call.
 */
const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, { quarter: number; offsetMs: number }>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      });
    } catch {
      f = formatter("UTC"); // an unknown zone name counts as UTC
    }
    formatters.set(zone, f);
  }
  return f;
}

export function zoneOffsetMs(zone: string, at: number): number {
  const quarter = Math.floor(at / QUARTER_MS);
  const hit = offsets.get(zone);
  if (hit && hit.quarter === quarter) return hit.offsetMs;
  const start = quarter * QUARTER_MS;
  const p: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(start)) p[part.type] = part.value;
  const offsetMs = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute) - start;
  offsets.set(zone, { quarter, offsetMs });
  return offsetMs;
}

/** Minute of the local day (0-1439) and ISO weekday (1 = Monday … 7 = Sunday). */
export function localClock(zone: string, at: number): { minute: number; weekday: number } {
  const local = at + zoneOffsetMs(zone, at);
  const day = Math.floor(local / DAY_MS);
  const minute = Math.floor((local - day * DAY_MS) / 60_000);
  // 1970-01-01 was a Thursday (ISO 4).
  return { minute, weekday: (((day + 3) % 7) + 7) % 7 + 1 };
}

export function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}
