/**
 * History video downloads (spec §4, §9): a batch of up to BATCH_DOWNLOAD_MAX files becomes one
 * task per file (downloading → success | failure). Each is played back by the terminal as its
 * own stream and recorded by the media hub to an MP4 under DATA_DIR; a device's tasks run one
 * after another. A task is offered for DOWNLOAD_VALID_HOURS; files go after HISTORY_KEEP_DAYS.
 */
import type { BlobStore, StoredBlob } from "../../lib/blobs/types.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { log } from "../../lib/log.ts";
import {
  BATCH_DOWNLOAD_MAX,
  DOWNLOAD_VALID_HOURS,
  HISTORY_KEEP_DAYS,
  type HistoryDownloadRequest,
  type VideoDownloadRow,
} from "./model.ts";
import { downloadKey, downloadsDir, keyOf } from "./paths.ts";
import { type LiveVideo, range } from "./live.ts";
import type { VisibleDevice } from "./settings.ts";
import type { VideoLink } from "./signalling.ts";
import type { DownloadRecord, VideoStore } from "./store.ts";
import type { MediaHub } from "./types.ts";

const videoLog = log.area("video");
const HOUR = 3_600_000;
/** A recording stops this long after the file's own length (slow uploads), 30 min at most. */
const RECORD_SLACK_MS = 60_000;
const RECORD_MAX_MS = 30 * 60_000;

export interface DownloadDeps {
  store: VideoStore;
  hub: MediaHub;
  live: LiveVideo;
  link: VideoLink;
  devices: VisibleDevice;
  /** The recorder writes here first (it seeks to finish the MP4 header). */
  dataDir: string;
  /** Finished MP4s (`video/downloads/<id>.mp4`): in place under DATA_DIR, or PostgreSQL. */
  blobs: BlobStore;
}

export class VideoDownloads {
  /** Per device: the chain its tasks run on, one after another. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly d: DownloadDeps) {}

  /** Tasks a previous process left "downloading" can never finish: they failed. */
  async recover(): Promise<void> {
    for (const r of await this.d.store.allDownloads()) {
      if (r.state === "downloading") await this.d.store.saveDownload({ ...r, state: "failure" });
    }
  }

  async create(session: Session, req: HistoryDownloadRequest): Promise<VideoDownloadRow[]> {
    const device = await this.d.devices.visibleDevice(session, req.imei);
    if (req.files.length > BATCH_DOWNLOAD_MAX) {
      throw new BizError("videoBatchTooLarge", { max: BATCH_DOWNLOAD_MAX });
    }
    await this.d.link.reach(req.imei);
    const rows: VideoDownloadRow[] = [];
    for (const f of req.files) {
      const [startTime, endTime] = range(f.startTime, f.endTime);
      const r: DownloadRecord = {
        id: crypto.randomUUID().replaceAll("-", ""),
        accountId: session.accountId,
        imei: req.imei,
        channel: f.channel,
        startTime,
        endTime,
        state: "downloading",
        size: 0,
        createdAt: Date.now(),
      };
      await this.d.store.saveDownload(r);
      this.enqueue(r);
      rows.push(toRow(r, device.deviceName));
    }
    return rows;
  }

  private enqueue(r: DownloadRecord): void {
    const prev = this.chains.get(r.imei) ?? Promise.resolve();
    const next = prev.then(() => this.run(r)).catch((e) =>
      videoLog.warn(`download ${r.id} of ${r.imei} failed`, e)
    );
    this.chains.set(r.imei, next);
    next.finally(() => {
      if (this.chains.get(r.imei) === next) this.chains.delete(r.imei);
    });
  }

  /** Plays the file back as its own stream and records it; the task ends success or failure. */
  private async run(r: DownloadRecord): Promise<void> {
    const purpose = `dl${r.id}`;
    const key = keyOf(r.imei, r.channel, purpose);
    const file = `${r.id}.mp4`;
    let size: number | null = null;
    try {
      await Deno.mkdir(downloadsDir(this.d.dataDir), { recursive: true });
      await this.d.live.playStream(r.imei, r.channel, r.startTime, r.endTime, purpose);
      const maxMs = Math.min(r.endTime - r.startTime + RECORD_SLACK_MS, RECORD_MAX_MS);
      const local = `${downloadsDir(this.d.dataDir)}/${file}`;
      size = await this.d.hub.record(key, local, maxMs);
      // Single mode: a rename onto itself; cluster mode: streamed into PostgreSQL.
      if (size) await this.d.blobs.putFile(downloadKey(file), local, { type: "video/mp4" });
    } catch (e) {
      if (!(e instanceof BizError)) videoLog.warn(`download ${r.id} failed`, e);
    } finally {
      this.d.hub.close(key);
    }
    const done: DownloadRecord = size
      ? { ...r, state: "success", size, file }
      : { ...r, state: "failure" };
    await this.d.store.saveDownload(done);
  }

  /** POST history/downloads: the caller's tasks still valid, newest first. */
  async list(
    session: Session,
    pageNum: number,
    pageSize: number,
    nameOf: (imei: string) => string,
  ): Promise<{ total: number; list: VideoDownloadRow[] }> {
    const valid = Date.now() - DOWNLOAD_VALID_HOURS * HOUR;
    const all = (await this.d.store.downloadsOf(session.accountId))
      .filter((r) => r.createdAt > valid)
      .sort((a, b) => b.createdAt - a.createdAt);
    const page = all.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    return { total: all.length, list: page.map((r) => toRow(r, nameOf(r.imei))) };
  }

  /** The MP4 of the caller's successful, still valid task. */
  async file(session: Session, id: string): Promise<{ blob: StoredBlob; name: string }> {
    const r = /^[0-9a-f]{32}$/.test(id) ? await this.d.store.download(id) : null;
    const valid = Date.now() - DOWNLOAD_VALID_HOURS * HOUR;
    if (!r || r.accountId !== session.accountId) throw new BizError("videoFileNotFound");
    if (r.state === "failure") throw new BizError("videoDownloadFailed");
    if (r.state !== "success" || !r.file) throw new BizError("videoFileNotFound");
    if (r.createdAt <= valid) throw new BizError("videoFileNotFound");
    const stamp = new Date(r.startTime).toISOString().replace(/[-:]/g, "").slice(0, 15);
    const blob = await this.d.blobs.get(downloadKey(r.file));
    if (!blob) throw new BizError("videoFileNotFound");
    return { blob, name: `${r.imei}_ch${r.channel}_${stamp}.mp4` };
  }

  /** The daily clean-up: tasks and files older than HISTORY_KEEP_DAYS go. */
  async cleanUp(now = Date.now()): Promise<number> {
    const cutoff = now - HISTORY_KEEP_DAYS * 24 * HOUR;
    let removed = 0;
    for (const r of await this.d.store.allDownloads()) {
      if (r.createdAt > cutoff) continue;
      if (r.file) await this.d.blobs.delete(downloadKey(r.file)).catch(() => {});
      await this.d.store.deleteDownload(r);
      removed++;
    }
    return removed;
  }
}

function toRow(r: DownloadRecord, deviceName: string): VideoDownloadRow {
  const row: VideoDownloadRow = {
    id: r.id,
    imei: r.imei,
    deviceName,
    channel: r.channel,
    startTime: new Date(r.startTime).toISOString(),
    endTime: new Date(r.endTime).toISOString(),
    state: r.state,
    size: r.size,
    createdAt: new Date(r.createdAt).toISOString(),
    expiresAt: new Date(r.createdAt + DOWNLOAD_VALID_HOURS * HOUR).toISOString(),
  };
  if (r.state === "success") row.url = `/v3/new/video/download/${r.id}`;
  return row;
}
