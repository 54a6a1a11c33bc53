/**
 * The video area's KV records (the only file here that touches KV): per-account settings and
 * daily play counts, camera nicknames per device, share links, download tasks and event media.
 * Media bytes live under DATA_DIR (modules/video/files.ts); KV keeps the index only.
 */
import type { CameraNickname, DownloadState, EventMediaState, VideoSettings } from "./model.ts";
import type { FaceMatchState } from "./model.ts";

export interface ShareRecord {
  id: string;
  token: string;
  /** The account whose subtree made the link (a virtual user's master). */
  ownerId: string;
  imei: string;
  channel: number;
  kind: "live" | "history";
  startTime?: number;
  endTime?: number;
  createdAt: number;
  expiresAt: number;
  revoked: boolean;
}

export interface DownloadRecord {
  id: string;
  /** The account that asked (its own list). */
  accountId: string;
  imei: string;
  channel: number;
  startTime: number;
  endTime: number;
  state: DownloadState;
  size: number;
  createdAt: number;
  /** File name under the downloads directory once recorded. */
  file?: string;
}

export interface EventMediaRecord {
  id: string;
  imei: string;
  userId: string;
  alertId: string | null;
  /** "adas:1", "dms:1", "media:0" … (family and the device's type code). */
  alarmType: string;
  time: number;
  lat: number | null;
  lng: number | null;
  state: EventMediaState;
  /** The T/JSATL12 alarm label (hex), when the media comes through 0x9208. */
  label: string | null;
  /** Attachments the alarm announced (0: unknown). */
  expected: number;
  /** Stored file names (under the event media directory of the device). */
  pictures: string[];
  videos: string[];
  face?: { state: FaceMatchState; driverName?: string; driverPhoto?: string };
  /** Files a dash cam named but keeps on its card (GT06-family 0x95 event packets). */
  cameraFiles?: string[];
  createdAt: number;
}

const DAY_MS = 86_400_000;

export class VideoStore {
  constructor(private readonly kv: Deno.Kv) {}

  // ---- settings and play counts ----
  async settings(accountId: string): Promise<VideoSettings | null> {
    return (await this.kv.get<VideoSettings>(["videoSettings", accountId])).value;
  }

  async setSettings(accountId: string, s: VideoSettings): Promise<void> {
    await this.kv.set(["videoSettings", accountId], s);
  }

  /** Counts one play of the account on `day` (YYYY-MM-DD) unless `limit` (>0) is reached. */
  async countPlay(accountId: string, day: string, limit: number): Promise<boolean> {
    const key = ["videoPlays", accountId, day];
    for (let i = 0; i < 5; i++) {
      const cur = await this.kv.get<number>(key);
      const n = cur.value ?? 0;
      if (limit > 0 && n >= limit) return false;
      const res = await this.kv.atomic().check(cur).set(key, n + 1, { expireIn: 2 * DAY_MS })
        .commit();
      if (res.ok) return true;
    }
    return true;
  }

  // ---- camera nicknames ----
  async cameras(imei: string): Promise<CameraNickname[]> {
    return (await this.kv.get<CameraNickname[]>(["videoCameras", imei])).value ?? [];
  }

  async setCameras(imei: string, list: CameraNickname[]): Promise<void> {
    if (list.length) await this.kv.set(["videoCameras", imei], list);
    else await this.kv.delete(["videoCameras", imei]);
  }

  // ---- share links ----
  async addShare(r: ShareRecord): Promise<void> {
    await this.kv.atomic()
      .set(["videoShare", r.id], r)
      .set(["videoShareToken", r.token], r.id)
      .set(["videoShareBy", r.ownerId, r.id], r.id)
      .commit();
  }

  async share(id: string): Promise<ShareRecord | null> {
    return (await this.kv.get<ShareRecord>(["videoShare", id])).value;
  }

  async shareByToken(token: string): Promise<ShareRecord | null> {
    const id = (await this.kv.get<string>(["videoShareToken", token])).value;
    return id ? await this.share(id) : null;
  }

  async sharesOf(ownerId: string): Promise<ShareRecord[]> {
    const out: ShareRecord[] = [];
    for await (const e of this.kv.list<string>({ prefix: ["videoShareBy", ownerId] })) {
      const r = await this.share(e.value);
      if (r) out.push(r);
    }
    return out;
  }

  async saveShare(r: ShareRecord): Promise<void> {
    await this.kv.set(["videoShare", r.id], r);
  }

  // ---- downloads ----
  async saveDownload(r: DownloadRecord): Promise<void> {
    await this.kv.atomic()
      .set(["videoDownload", r.id], r)
      .set(["videoDownloadBy", r.accountId, r.id], r.id)
      .commit();
  }

  async download(id: string): Promise<DownloadRecord | null> {
    return (await this.kv.get<DownloadRecord>(["videoDownload", id])).value;
  }

  async downloadsOf(accountId: string): Promise<DownloadRecord[]> {
    const out: DownloadRecord[] = [];
    for await (const e of this.kv.list<string>({ prefix: ["videoDownloadBy", accountId] })) {
      const r = await this.download(e.value);
      if (r) out.push(r);
    }
    return out;
  }

  async allDownloads(): Promise<DownloadRecord[]> {
    const out: DownloadRecord[] = [];
    for await (const e of this.kv.list<DownloadRecord>({ prefix: ["videoDownload"] })) {
      out.push(e.value);
    }
    return out;
  }

  async deleteDownload(r: DownloadRecord): Promise<void> {
    await this.kv.atomic()
      .delete(["videoDownload", r.id])
      .delete(["videoDownloadBy", r.accountId, r.id])
      .commit();
  }

  // ---- event media ----
  /** Adds a record unless one of its label exists (a re-sent report): false then. */
  async addEvent(r: EventMediaRecord): Promise<boolean> {
    if (!r.label) {
      await this.saveEvent(r);
      return true;
    }
    const res = await this.kv.atomic()
      .check({ key: ["videoEventLabel", r.label], versionstamp: null })
      .set(["videoEvent", r.id], r)
      .set(["videoEventAt", r.imei, r.time, r.id], r.id)
      .set(["videoEventTime", r.time, r.id], r.imei)
      .set(["videoEventLabel", r.label], r.id)
      .commit();
    return res.ok;
  }

  async saveEvent(r: EventMediaRecord): Promise<void> {
    const op = this.kv.atomic()
      .set(["videoEvent", r.id], r)
      .set(["videoEventAt", r.imei, r.time, r.id], r.id)
      .set(["videoEventTime", r.time, r.id], r.imei);
    if (r.label) op.set(["videoEventLabel", r.label], r.id);
    await op.commit();
  }

  async event(id: string): Promise<EventMediaRecord | null> {
    return (await this.kv.get<EventMediaRecord>(["videoEvent", id])).value;
  }

  async eventByLabel(label: string): Promise<EventMediaRecord | null> {
    const id = (await this.kv.get<string>(["videoEventLabel", label])).value;
    return id ? await this.event(id) : null;
  }

  /**
   * Every device's event media with from ≤ time ≤ to whose IMEI passes `wanted`, newest first;
   * at most `limit` returned and `scan` index entries read.
   */
  async eventsBetween(
    from: number,
    to: number,
    wanted: (imei: string) => boolean,
    limit: number,
    scan: number,
  ): Promise<EventMediaRecord[]> {
    const out: EventMediaRecord[] = [];
    const iter = this.kv.list<string>({
      start: ["videoEventTime", from],
      end: ["videoEventTime", to + 1],
    }, { reverse: true, limit: scan });
    for await (const e of iter) {
      if (!wanted(e.value)) continue;
      const r = await this.event(e.key[2] as string);
      if (r) out.push(r);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** A device's event media with from ≤ time ≤ to, newest first, at most `limit`. */
  async eventsOf(
    imei: string,
    from: number,
    to: number,
    limit: number,
  ): Promise<EventMediaRecord[]> {
    const out: EventMediaRecord[] = [];
    const iter = this.kv.list<string>({
      start: ["videoEventAt", imei, from],
      end: ["videoEventAt", imei, to + 1],
    }, { reverse: true, limit });
    for await (const e of iter) {
      const r = await this.event(e.value);
      if (r) out.push(r);
    }
    return out;
  }
}
