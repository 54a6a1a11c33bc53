/**
 * Where the product keeps file bytes (issue 23): driver photos, domain images, device install
 * images and ringtones, video downloads, event media, the Open API secret key. Single mode keeps
 * them as files under DATA_DIR at exactly the paths of earlier versions (`FsBlobStore`); cluster
 * mode keeps them in PostgreSQL (`PgBlobStore`), so a file written through one instance is read
 * through any other. Each module uses its own key prefix (`fleet/avatars/…`, `video/events/…`).
 *
 * Keys are relative paths: `/`-separated segments of letters, digits and `._()-`, never `.` or
 * `..`, so a key can never walk out of DATA_DIR.
 */

/** What `get` answers: the bytes as a stream (read once), their size and media type. */
export interface StoredBlob {
  size: number;
  type: string;
  stream: ReadableStream<Uint8Array>;
}

export interface BlobInfo {
  key: string;
  size: number;
}

export interface BlobStore {
  readonly kind: "files" | "postgres";
  /** Stores (replaces) `key`; a stream is written as it arrives, never held whole. Answers the size. */
  put(
    key: string,
    body: Uint8Array | ReadableStream<Uint8Array>,
    meta?: { type?: string },
  ): Promise<number>;
  /**
   * Stores `bytes` under `key` only when there is no blob there yet: true when this call wrote
   * it. Two instances racing to create the same key (a server key) agree on one winner.
   */
  putNew(key: string, bytes: Uint8Array, meta?: { type?: string }): Promise<boolean>;
  /**
   * Moves a finished local file into the store under `key` (the file is gone afterwards): a
   * rename for the files store, a streamed copy for PostgreSQL. For bytes written with seeks
   * (the MP4 recorder rewrites its header) that must exist as a file first.
   */
  putFile(key: string, path: string, meta?: { type?: string }): Promise<number>;
  /** The blob, or null when there is none. */
  get(key: string): Promise<StoredBlob | null>;
  /** The whole blob in memory (small files: images, keys), or null. */
  bytes(key: string): Promise<Uint8Array<ArrayBuffer> | null>;
  /** Removes `key`; no error when it is missing. */
  delete(key: string): Promise<void>;
  /** The blobs whose key starts with `prefix` (a folder: end it with `/`), by key. */
  list(prefix: string): Promise<BlobInfo[]>;
  close(): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9_()\-][A-Za-z0-9._()\-]*$/;

/** Throws on a key that is not a clean relative path. */
export function checkKey(key: string): string {
  const parts = key.split("/");
  if (!key || parts.some((p) => !SEGMENT.test(p) || p === "." || p === "..")) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** Checks a list prefix: empty, or a key possibly ending with `/`. */
export function checkPrefix(prefix: string): string {
  if (prefix === "") return prefix;
  checkKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
  return prefix;
}

const TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
  txt: "text/plain",
};

/** The media type a key's extension names (the files store keeps no other). */
export function typeOfKey(key: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(key)?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) ?? "application/octet-stream";
}
