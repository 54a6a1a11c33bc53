import type { BlobStore } from "../../lib/blobs/types.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { findModel } from "./models.ts";
import type { DeviceService } from "./service.ts";
import type { DeviceStore, ImageTask } from "./store.ts";

/** Spec §5 install image limits. */
export const MAX_IMAGES_PER_DEVICE = 9;
export const MAX_IMAGES_PER_OPERATION = 200;
/** Each image must fit the API body limit with room for the form framing. */
export const MAX_IMAGE_BYTES = 1000 * 1024;
/** Spec §5: ringtones under 512 KB. */
export const MAX_RINGTONE_BYTES = 512 * 1024;

/** Install images are named IMEI(n).jpg/.png (spec §5). */
export const IMAGE_NAME = /^(\d{15})\((\d{1,2})\)\.(jpe?g|png)$/i;

type Kind = "jpeg" | "png" | "mp3" | "wav";

/** The real type of a file from its first bytes; extensions alone are not trusted. */
export function sniff(bytes: Uint8Array): Kind | null {
  const at = (i: number, ...v: number[]) => v.every((b, j) => bytes[i + j] === b);
  if (at(0, 0xff, 0xd8, 0xff)) return "jpeg";
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x41, 0x56, 0x45)) return "wav";
  if (at(0, 0x49, 0x44, 0x33) || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return "mp3";
  return null;
}

export interface ImageResult {
  name: string;
  imei: string | null;
  ok: boolean;
  /** Catalogue name of the refusal, translated by the route. */
  error?: "fileTypeInvalid" | "fileTooLarge" | "tooManyImages" | "deviceNoPermission";
}

/**
 * Install images and ringtones, stored as blobs under `devices/` (one folder per device for
 * images; DATA_DIR files, or PostgreSQL in a cluster). The device record lists the image names.
 */
export class DeviceFiles {
  constructor(
    private readonly blobs: BlobStore,
    private readonly devices: DeviceService,
    /** Keeps each uploaded file as a task of the uploading user (the task list). */
    private readonly store?: DeviceStore,
  ) {}

  /** The logged-in user's upload tasks, newest first (at most 9999 are kept). */
  imageTasks(session: Session, pageNum: number, pageSize: number) {
    return this.store!.imageTasks(session.accountId, (pageNum - 1) * pageSize, pageSize);
  }

  private imageKey(imei: string, name: string) {
    return `devices/images/${imei}/${name}`;
  }

  /** One upload operation: each file is checked on its own and gets its own result. */
  async uploadImages(session: Session, files: File[]): Promise<ImageResult[]> {
    await this.devices.assertCanEdit(session);
    if (files.length > MAX_IMAGES_PER_OPERATION) {
      throw new BizError("tooManyImages", { limit: MAX_IMAGES_PER_OPERATION });
    }
    const results: ImageResult[] = [];
    for (const f of files) {
      const m = IMAGE_NAME.exec(f.name);
      const imei = m?.[1] ?? null;
      const fail = (error: ImageResult["error"]) =>
        results.push({ name: f.name, imei, ok: false, error });
      if (!m) {
        fail("fileTypeInvalid");
        continue;
      }
      if (f.size > MAX_IMAGE_BYTES) {
        fail("fileTooLarge");
        continue;
      }
      const bytes = new Uint8Array(await f.arrayBuffer());
      const kind = sniff(bytes);
      const ext = m[3].toLowerCase() === "png" ? "png" : "jpeg";
      if (kind !== ext) {
        fail("fileTypeInvalid");
        continue;
      }
      let device;
      try {
        [device] = await this.devices.visibleDevices(session, [m[1]]);
      } catch {
        fail("deviceNoPermission");
        continue;
      }
      const name = `${m[1]}(${Number(m[2])}).${kind === "png" ? "png" : "jpg"}`;
      const current = device.installImages ?? [];
      const base = name.replace(/\.\w+$/, "");
      const others = current.filter((n) => n.replace(/\.\w+$/, "") !== base);
      if (others.length >= MAX_IMAGES_PER_DEVICE) {
        fail("tooManyImages");
        continue;
      }
      for (const old of current.filter((n) => !others.includes(n))) {
        await this.blobs.delete(this.imageKey(device.imei, old)).catch(() => {});
      }
      await this.blobs.put(this.imageKey(device.imei, name), bytes);
      await this.devices.save([{
        before: device,
        after: { ...device, installImages: [...others, name].sort(byNumber) },
      }]);
      results.push({ name, imei: device.imei, ok: true });
    }
    const time = new Date().toISOString();
    const tasks: ImageTask[] = results.map((r, i) => ({
      // Same-millisecond tasks keep their upload order through the id.
      id: `${String(i).padStart(3, "0")}-${crypto.randomUUID()}`,
      time,
      name: r.name,
      imei: r.imei,
      ok: r.ok,
      error: r.error ?? null,
    }));
    await this.store?.addImageTasks(session.accountId, tasks);
    return results;
  }

  async readImage(session: Session, imei: string, name: string): Promise<Response> {
    const d = await this.devices.visibleDevice(session, imei);
    if (!(d.installImages ?? []).includes(name)) throw new BizError("dataNotExists");
    const bytes = await this.blobs.bytes(this.imageKey(imei, name));
    if (!bytes) throw new BizError("dataNotExists");
    return new Response(bytes, {
      headers: {
        "content-type": name.endsWith(".png") ? "image/png" : "image/jpeg",
        "cache-control": "private, max-age=60",
      },
    });
  }

  async deleteImage(session: Session, imei: string, name: string) {
    await this.devices.assertCanEdit(session);
    const d = await this.devices.visibleDevice(session, imei);
    const current = d.installImages ?? [];
    if (!current.includes(name)) throw new BizError("dataNotExists");
    await this.blobs.delete(this.imageKey(imei, name)).catch(() => {});
    await this.devices.save([{
      before: d,
      after: { ...d, installImages: current.filter((n) => n !== name) },
    }]);
  }

  /** A ringtone for models that play one: mp3 or wav by content, under 512 KB. */
  async uploadRingtone(session: Session, imei: string, file: File) {
    await this.devices.assertCanEdit(session);
    const d = await this.devices.visibleDevice(session, imei);
    if (!findModel(d.mcType)?.ringtone) throw new BizError("ringtoneUnsupported");
    if (file.size >= MAX_RINGTONE_BYTES) throw new BizError("fileTooLarge", { limit: "512 KB" });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const kind = sniff(bytes);
    if (kind !== "mp3" && kind !== "wav") {
      throw new BizError("fileTypeInvalid", { types: "mp3, wav" });
    }
    const name = `${imei}.${kind}`;
    if (d.ringtone && d.ringtone !== name) {
      await this.blobs.delete(`devices/ringtones/${d.ringtone}`).catch(() => {});
    }
    await this.blobs.put(`devices/ringtones/${name}`, bytes);
    await this.devices.save([{ before: d, after: { ...d, ringtone: name } }]);
    return { ringtone: name, size: bytes.length };
  }
}

const byNumber = (a: string, b: string) =>
  Number(/\((\d+)\)/.exec(a)?.[1]) - Number(/\((\d+)\)/.exec(b)?.[1]);
