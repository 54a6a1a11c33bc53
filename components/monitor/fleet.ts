/**
 * The map page's model of the fleet: the objects payload kept as parallel arrays, live
 * updates applied in place, and the list's filter, counts and sort. Pure (no DOM).
 */
import type { DeviceStatus } from "../../modules/devices/model.ts";
import type { CountKey, ObjectsPayload } from "../../modules/monitor/objects.ts";
import type { LivePosition } from "./live.ts";

export type SortType = "name" | "imei" | "status" | "speed" | "time";
export type SortRule = "asc" | "desc";

const OFFLINE_LIKE = new Set<DeviceStatus>(["offline", "sleeping", "poweredOff"]);
const STATUS_ORDER: Record<DeviceStatus, number> = {
  moving: 0,
  idling: 1,
  stopped: 2,
  offline: 3,
  sleeping: 4,
  poweredOff: 5,
  inactive: 6,
};

/** The tab of a status (the same split as modules/monitor/objects.ts countKeyOf). */
export function tabOf(status: DeviceStatus): Exclude<CountKey, "all"> {
  if (status === "inactive") return "notActivated";
  return OFFLINE_LIKE.has(status) ? "offline" : status as "moving" | "idling" | "stopped";
}

export class Fleet {
  data: ObjectsPayload;
  private index = new Map<string, number>();
  /** Indexes in name ("letter", natural) and IMEI order, and each index's IMEI rank. */
  private rank: { imei: Int32Array; order: { name: number[]; imei: number[] } } | null = null;

  constructor(data: ObjectsPayload) {
    this.data = data;
    this.reindex();
  }

  replace(data: ObjectsPayload): void {
    this.data = data;
    this.reindex();
  }

  private reindex() {
    this.rank = null;
    this.index.clear();
    this.data.imei.forEach((imei, i) => this.index.set(imei, i));
  }

  get size(): number {
    return this.data.imei.length;
  }

  indexOf(imei: string): number {
    return this.index.get(imei) ?? -1;
  }

  status(i: number): DeviceStatus {
    return this.data.statuses[this.data.status[i]];
  }

  /** Applies a live batch; returns the indexes that changed. */
  applyPositions(rows: LivePosition[]): number[] {
    const changed: number[] = [];
    const d = this.data;
    for (const [imei, lat, lng, speed, course, time, st] of rows) {
      const i = this.index.get(imei);
      if (i === undefined) continue;
      // Out-of-order fixes (a device replaying its buffer) must not move the marker back.
      if (d.gpsTime[i] !== null && time < d.gpsTime[i]!) continue;
      d.lat[i] = lat;
      d.lng[i] = lng;
      d.speed[i] = speed;
      d.course[i] = course;
      d.gpsTime[i] = time;
      d.hbTime[i] = Math.max(d.hbTime[i] ?? 0, Date.now());
      if (st >= 0) d.status[i] = st;
      changed.push(i);
    }
    return changed;
  }

  applyStatuses(rows: [string, number][]): number[] {
    const changed: number[] = [];
    for (const [imei, st] of rows) {
      const i = this.index.get(imei);
      if (i === undefined) continue;
      this.data.status[i] = st;
      changed.push(i);
    }
    return changed;
  }

  counts(): Record<CountKey, number> {
    // Counted per status code first (runs every second over the whole fleet).
    const perStatus = new Array<number>(this.data.statuses.length).fill(0);
    for (const st of this.data.status) perStatus[st]++;
    const c: Record<CountKey, number> = {
      all: 0,
      moving: 0,
      idling: 0,
      stopped: 0,
      offline: 0,
      notActivated: 0,
    };
    perStatus.forEach((n, st) => {
      c.all += n;
      c[tabOf(this.data.statuses[st])] += n;
    });
    return c;
  }

  /** Group names in use, with their device counts ("" is the default group). */
  groups(): [string, number][] {
    const counts = new Map<string, number>();
    for (const g of this.data.group) counts.set(g, (counts.get(g) ?? 0) + 1);
    return [...counts].sort((
      a,
      b,
    ) => (a[0] === "" ? -1 : b[0] === "" ? 1 : a[0].localeCompare(b[0])));
  }

  /** Indexes matching the tab, group and search, sorted; followed devices first. */
  view(opts: {
    tab: CountKey;
    search: string;
    sortType: SortType;
    sortRule: SortRule;
    /** A group name, "" for the default group; undefined for every group. */
    group?: string;
  }): number[] {
    const d = this.data;
    const q = opts.search.trim().toLowerCase();
    const keep = (i: number) =>
      (opts.tab === "all" || tabOf(this.status(i)) === opts.tab) &&
      (opts.group === undefined || d.group[i] === opts.group) &&
      (!q || d.imei[i].includes(q) || d.name[i].toLowerCase().includes(q));
    const dir = opts.sortRule === "desc" ? -1 : 1;
    // Names and IMEIs are ranked once per answer: the list is rebuilt every second while
    // positions stream in, and a collator over 10,000 names took longer than a frame.
    const rank = this.ranks();
    if (opts.sortType === "name" || opts.sortType === "imei") {
      // Already in order: walk it (O(n), no sort), followed devices first.
      const order = rank.order[opts.sortType], followed: number[] = [], rest: number[] = [];
      for (let k = 0; k < order.length; k++) {
        const i = order[dir === 1 ? k : order.length - 1 - k];
        if (keep(i)) (d.followed[i] ? followed : rest).push(i);
      }
      return followed.concat(rest);
    }
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) if (keep(i)) out.push(i);
    const key: (i: number) => number = {
      status: (i: number) => STATUS_ORDER[this.status(i)],
      speed: (i: number) => d.speed[i],
      time: (i: number) => d.gpsTime[i] ?? 0,
    }[opts.sortType];
    out.sort((a, b) => {
      if (d.followed[a] !== d.followed[b]) return d.followed[a] ? -1 : 1;
      const c = key(a) - key(b);
      return c !== 0 ? c * dir : rank.imei[a] - rank.imei[b];
    });
    return out;
  }

  private ranks() {
    if (this.rank) return this.rank;
    const d = this.data, n = this.size;
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    const rankOf = (order: number[]) => {
      const r = new Int32Array(n);
      order.forEach((i, k) => r[i] = k);
      return r;
    };
    const all = () => Array.from({ length: n }, (_, i) => i);
    const imeiOrder = all().sort((a, b) =>
      d.imei[a] < d.imei[b] ? -1 : d.imei[a] > d.imei[b] ? 1 : 0
    );
    const imei = rankOf(imeiOrder);
    const nameOrder = all().sort((a, b) =>
      collator.compare(d.name[a], d.name[b]) || imei[a] - imei[b]
    );
    return this.rank = { imei, order: { name: nameOrder, imei: imeiOrder } };
  }
}
