/**
 * The process's blob store: files under DATA_DIR in single mode, PostgreSQL (schema `blobs`)
 * when DATABASE_URL is set. The pg client is loaded only in cluster mode.
 */
import type { Config } from "../config.ts";
import { FsBlobStore } from "./fs.ts";
import type { BlobStore } from "./types.ts";

export async function openBlobStore(
  config: Pick<Config, "DATA_DIR" | "DATABASE_URL">,
): Promise<BlobStore> {
  if (!config.DATABASE_URL) return new FsBlobStore(config.DATA_DIR);
  const { PgBlobStore } = await import("./pg.ts");
  return new PgBlobStore(config.DATABASE_URL);
}
