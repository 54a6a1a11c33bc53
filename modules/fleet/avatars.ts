import type { BlobStore } from "../../lib/blobs/types.ts";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { sniff } from "../devices/files.ts";
import type { DriverService } from "./drivers.ts";
import { FLEET_LIMITS } from "./model.ts";

/** Stored avatar names: a random id and the real type's extension (nothing else reaches disk). */
const AVATAR_NAME = /^[0-9a-f]{32}\.(jpg|png)$/;
const TYPES = { jpg: "image/jpeg", png: "image/png" } as const;

/**
 * Driver photos (spec §5 Fleet: jpg or png under 2 MB, 2048 kb): the type is read from the
 * bytes, not the name; each upload gets a new random name and replaces the driver's previous.
 * The bytes are blobs under `fleet/avatars/` (files under DATA_DIR, or PostgreSQL in a cluster).
 */
export class DriverAvatars {
  constructor(private readonly blobs: BlobStore, private readonly drivers: DriverService) {}

  private key(name: string) {
    return `fleet/avatars/${name}`;
  }

  async upload(session: Session, driverId: string, bytes: Uint8Array): Promise<{ avatar: string }> {
    const driver = await this.drivers.visible(session, driverId);
    if (bytes.length >= FLEET_LIMITS.avatarMaxBytes) {
      throw new BizError("fileTooLarge", { limit: "2 MB" });
    }
    const kind = sniff(bytes);
    if (kind !== "jpeg" && kind !== "png") {
      throw new BizError("fileTypeInvalid", { types: "JPG, PNG" });
    }
    const name = `${crypto.randomUUID().replaceAll("-", "")}.${kind === "jpeg" ? "jpg" : "png"}`;
    await this.blobs.put(this.key(name), bytes);
    await this.drivers.setAvatar(driver, name);
    if (driver.avatar && AVATAR_NAME.test(driver.avatar)) {
      await this.blobs.delete(this.key(driver.avatar)).catch(() => {});
    }
    return { avatar: name };
  }

  /** The driver's photo, or null (no photo, or a driver the caller may not see). */
  async serve(session: Session, driverId: string): Promise<Response | null> {
    const driver = await this.drivers.visible(session, driverId).catch(() => null);
    if (!driver || !AVATAR_NAME.test(driver.avatar)) return null;
    const bytes = await this.blobs.bytes(this.key(driver.avatar)).catch(() => null);
    if (!bytes) return null;
    const ext = driver.avatar.endsWith(".png") ? "png" : "jpg";
    return new Response(bytes, {
      headers: {
        "content-type": TYPES[ext],
        "x-content-type-options": "nosniff",
        "cache-control": "private, max-age=300",
        "content-security-policy": "default-src 'none'; sandbox",
      },
    });
  }
}
