/**
 * Event media (spec §4): the pictures and videos of device alarms, linked to their alert
 * records. An active-safety alarm (T/JSATL12 0x64-0x67 in a location report) becomes a record
 * "obtaining" and its attachments are asked for (0x9208); they arrive on the attachment port
 * (attachment_server.ts) and the record turns "obtained" (picture, video or both). A terminal
 * that refuses the request fails the record; one that announces no files any more had them
 * overwritten; nothing within OBTAIN_TIMEOUT_MS fails it. A picture uploaded over the JT/T 808
 * link (0x0801) is a record of its own, linked to the alert of that moment if there is one.
 * A GT06-family dash cam's event names its files (onCameraFiles; see camera_files.ts).
 */
import type { BlobStore, StoredBlob } from "../../lib/blobs/types.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { log } from "../../lib/log.ts";
import type { AlertHistory } from "../alerts/types.ts";
import type { LiveConnection } from "../gateway/types.ts";
import type { VideoEvent } from "../gateway/protocols/types.ts";
import type { EventMediaRow, EventMediaState } from "./model.ts";
import { eventFileKey, safeName } from "./paths.ts";
import type { VideoLink } from "./signalling.ts";
import type { EventMediaRecord, VideoStore } from "./store.ts";

const videoLog = log.area("video");
/** A record still "obtaining" this long after the alarm has failed. */
export const OBTAIN_TIMEOUT_MS = 10 * 60_000;
/** event/list reads device by device up to this many devices, else by time. */
const PER_DEVICE_MAX = 50;
/** Records event/list considers (newest first) and index entries it reads at most. */
const LIST_MAX = 1000;
const SCAN_MAX = 20_000;
/** An alert this close to the media's time (ms) is its alert. */
const ALERT_WINDOW_MS = 60_000;
/** DMS alarm types that report a face comparison: 0x11 driver changed (matched), 0x05 abnormal. */
const FACE_TYPES: Record<number, "success" | "failure"> = { 0x11: "success", 0x05: "failure" };

export type MediaKind = "picture" | "video" | "other";

export interface EventMediaDeps {
  store: VideoStore;
  link: VideoLink;
  alerts: AlertHistory;
  /** Where the files go (`video/events/<id>/<name>`): DATA_DIR, or PostgreSQL in a cluster. */
  blobs: BlobStore;
  /** Where terminals upload attachments (JT_ATTACHMENT_PORT on this server's public host). */
  attachmentAddress: (conn: LiveConnection) => { host: string; port: number };
  /** The device's owner and name (the directory). */
  device: (imei: string) => { userId: string; deviceName: string } | undefined;
  /** The devices the caller sees (all of its subtree, or the named ones). */
  visibleImeis: (session: Session, imeis?: string[]) => Promise<string[]>;
  /** The fleet driver of a device at a time, with their photo path, when the fleet has one. */
  driverOf?: (imei: string, time: number) => Promise<{ name: string; photo?: string } | null>;
}

export interface EventListFilter {
  imeis?: string[];
  startTime: string;
  endTime: string;
  state?: EventMediaState;
  pageNum: number;
  pageSize: number;
}

export class EventMedia {
  constructor(private readonly d: EventMediaDeps) {}

  /** The gateway's video events that concern event media. */
  async onEvent(conn: LiveConnection, event: VideoEvent): Promise<void> {
    if (event.kind === "safetyAlarm") await this.onSafetyAlarm(conn, event);
    else if (event.kind === "mediaData") await this.onPicture(conn.imei, event);
  }

  private async onSafetyAlarm(
    conn: LiveConnection,
    e: Extract<VideoEvent, { kind: "safetyAlarm" }>,
  ): Promise<void> {
    const record = await this.newRecord(conn.imei, `${e.family}:${e.alarmType}`, e.time);
    record.label = e.label;
    record.expected = e.files;
    const face = e.family === "dms" ? FACE_TYPES[e.alarmType] : undefined;
    if (face) record.face = await this.face(conn.imei, face, e.time);
    record.state = e.files > 0 ? "obtaining" : "notObtained";
    if (!await this.d.store.addEvent(record)) return; // a re-sent report of the same alarm
    if (e.files === 0) return;
    const { host, port } = this.d.attachmentAddress(conn);
    const accepted = await this.d.link.request(conn.imei, {
      type: "attachmentUpload",
      host,
      port,
      label: e.label,
      alarmNo: record.id,
    }, 30_000).catch(() => false);
    if (accepted === false) await this.setState(record.id, "failed");
  }

  /** The DMS's comparison result, shown against the fleet's driver of that moment. */
  private async face(imei: string, state: "success" | "failure", time: number) {
    const driver = await this.d.driverOf?.(imei, time).catch(() => null);
    return driver
      ? { state, driverName: driver.name, ...(driver.photo ? { driverPhoto: driver.photo } : {}) }
      : { state };
  }

  /** 0x0801: a picture over the 808 link, its own record. */
  private async onPicture(
    imei: string,
    e: Extract<VideoEvent, { kind: "mediaData" }>,
  ): Promise<void> {
    if (e.mediaType !== 0 || e.data.length === 0) return;
    const record = await this.newRecord(imei, `media:${e.event}`, Date.now());
    await this.d.store.saveEvent(record);
    await this.addFile(record.id, `ch${e.channel}_${e.mediaId}.jpg`, "picture", e.data);
  }

  /**
   * A GT06-family dash cam's event (JC100/JC400 0x95) names the video files it recorded; they
   * stay on the camera's card (these cams upload them to their vendor's service over a protocol
   * that is not public), so the record is "not obtained" and lists the names. A re-sent packet
   * (same device and time) keeps one record.
   */
  async onCameraFiles(imei: string, time: number, eventCode: number, files: string[]) {
    const record = await this.newRecord(imei, `camera:${eventCode}`, time);
    record.label = `camera:${imei}:${time}`;
    record.cameraFiles = files;
    await this.d.store.addEvent(record);
  }

  private async newRecord(imei: string, alarmType: string, time: number) {
    const device = this.d.device(imei);
    const alert = (await this.d.alerts.range(imei, time - ALERT_WINDOW_MS, time + ALERT_WINDOW_MS))
      .sort((a, b) => Math.abs(a.time - time) - Math.abs(b.time - time))[0];
    const record: EventMediaRecord = {
      id: crypto.randomUUID().replaceAll("-", ""),
      imei,
      userId: device?.userId ?? "",
      alertId: alert?.id ?? null,
      alarmType,
      time,
      lat: alert?.lat ?? null,
      lng: alert?.lng ?? null,
      state: "notObtained",
      label: null,
      expected: 0,
      pictures: [],
      videos: [],
      createdAt: Date.now(),
    };
    return record;
  }

  /** 0x1210 names the record (its alarm number is our id, or its label): null if unknown. */
  async attachmentsAnnounced(
    alarmNo: string,
    label: string,
    files: number,
  ): Promise<EventMediaRecord | null> {
    const r = (/^[0-9a-f]{32}$/.test(alarmNo) ? await this.d.store.event(alarmNo) : null) ??
      await this.d.store.eventByLabel(label);
    if (!r) return null;
    if (files === 0 && r.pictures.length + r.videos.length === 0) {
      await this.setState(r.id, "overwritten");
    }
    return r;
  }

  /** A complete attachment file: stored as a blob, the record's state follows. */
  async addFile(id: string, name: string, kind: MediaKind, bytes: Uint8Array): Promise<void> {
    const r = await this.d.store.event(id);
    if (!r || kind === "other") return;
    const file = safeName(name);
    await this.d.blobs.put(eventFileKey(id, file), bytes);
    const pictures = kind === "picture" ? unique([...r.pictures, file]) : r.pictures;
    const videos = kind === "video" ? unique([...r.videos, file]) : r.videos;
    const state: EventMediaState = pictures.length && videos.length
      ? "obtainedBoth"
      : videos.length
      ? "obtainedVideo"
      : "obtainedPicture";
    await this.d.store.saveEvent({ ...r, pictures, videos, state });
  }

  private async setState(id: string, state: EventMediaState): Promise<void> {
    const r = await this.d.store.event(id);
    if (r) await this.d.store.saveEvent({ ...r, state });
  }

  /** POST event/list: the caller's devices' event media in the range, newest first. */
  async list(
    session: Session,
    f: EventListFilter,
  ): Promise<{ total: number; list: EventMediaRow[] }> {
    const imeis = await this.d.visibleImeis(session, f.imeis);
    const from = Date.parse(f.startTime), to = Date.parse(f.endTime);
    if (!(to > from)) throw new BizError("videoRangeInvalid");
    const now = Date.now();
    const all: EventMediaRecord[] = [];
    for (const r of await this.records(imeis, from, to)) all.push(await this.expire(r, now));
    const matching = all.filter((r) => !f.state || r.state === f.state)
      .sort((a, b) => b.time - a.time);
    const page = matching.slice((f.pageNum - 1) * f.pageSize, f.pageNum * f.pageSize);
    return { total: matching.length, list: page.map((r) => this.row(r)) };
  }

  /**
   * The records of a few devices by device; of many (a whole subtree) by time, filtered: the
   * cost follows the media in the range, not the number of devices.
   */
  private async records(imeis: string[], from: number, to: number) {
    if (imeis.length <= PER_DEVICE_MAX) {
      const out: EventMediaRecord[] = [];
      for (const imei of imeis) out.push(...await this.d.store.eventsOf(imei, from, to, LIST_MAX));
      return out;
    }
    const wanted = new Set(imeis);
    return await this.d.store.eventsBetween(from, to, (i) => wanted.has(i), LIST_MAX, SCAN_MAX);
  }

  /** A record "obtaining" for too long has failed (checked when read). */
  private async expire(r: EventMediaRecord, now: number): Promise<EventMediaRecord> {
    if (r.state !== "obtaining" || now - r.createdAt < OBTAIN_TIMEOUT_MS) return r;
    const failed = { ...r, state: "failed" as const };
    await this.d.store.saveEvent(failed).catch((e) => videoLog.warn("event media expiry", e));
    return failed;
  }

  private row(r: EventMediaRecord): EventMediaRow {
    const path = (name: string) => `/v3/new/video/media/${r.id}/${name}`;
    const row: EventMediaRow = {
      id: r.id,
      alertId: r.alertId ?? "",
      imei: r.imei,
      deviceName: this.d.device(r.imei)?.deviceName ?? r.imei,
      alarmType: r.alarmType,
      time: new Date(r.time).toISOString(),
      lat: r.lat,
      lng: r.lng,
      state: r.state,
      pictures: r.pictures.map(path),
      videos: r.videos.map(path),
    };
    if (r.face) row.face = r.face;
    if (r.cameraFiles?.length) row.cameraFiles = r.cameraFiles;
    return row;
  }

  /** A stored file of a record the caller sees. */
  async file(session: Session, id: string, name: string): Promise<StoredBlob> {
    const r = /^[0-9a-f]{32}$/.test(id) ? await this.d.store.event(id) : null;
    if (!r || (!r.pictures.includes(name) && !r.videos.includes(name))) {
      throw new BizError("videoFileNotFound");
    }
    const visible = await this.d.visibleImeis(session, [r.imei]).catch((): string[] => []);
    if (!visible.includes(r.imei)) throw new BizError("videoFileNotFound");
    const blob = await this.d.blobs.get(eventFileKey(id, name));
    if (!blob) throw new BizError("videoFileNotFound");
    return { ...blob, type: contentType(name) };
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

export function contentType(name: string): string {
  const ext = name.split(".").pop()?.toLowerCase();
  if (ext === "jpg" || ext === "jpeg") return "image/jpeg";
  if (ext === "png") return "image/png";
  if (ext === "mp4") return "video/mp4";
  if (ext === "h264" || ext === "264") return "video/h264";
  return "application/octet-stream";
}
