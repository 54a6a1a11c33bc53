import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { quickRange, type Range } from "./range.ts";

/**
 * A range overview's data (POST /v3/new/report/overview/{moving|alert}) over the caller's
 * whole tree, reloaded when the range changes; the last 7 days at first.
 */
export function useRangeOverview<T>(kind: "moving" | "alert", tz: string) {
  const [range, setRange] = useState<Range>(() => quickRange("last7Days", Date.now(), tz));
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    setError("");
    api<T>(`/v3/new/report/overview/${kind}`, {
      startTime: new Date(range.from).toISOString(),
      endTime: new Date(range.to).toISOString(),
    }).then((d) => live && setData(d), (e) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [range.from, range.to]);
  return { range, setRange, data, error };
}

/** A report page over one device and the overview's range (rankings link to it). */
export function reportHref(report: string, imei: string, range: Range): string {
  return `/new/${report}?${new URLSearchParams({
    imei,
    startTime: new Date(range.from).toISOString(),
    endTime: new Date(range.to).toISOString(),
  })}`;
}
