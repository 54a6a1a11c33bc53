/**
 * App secrets encrypted at rest (issue 22): MD5 signing needs the secret itself, so it cannot
 * be hashed like a password. AES-256-GCM with a server key kept as a blob of its own,
 * `openapi/secret.key` (32 random bytes, created on first use): in single mode the file
 * DATA_DIR/openapi/secret.key (mode 0600) apart from the KV file, so a copy of the store alone
 * (a backup) does not reveal any secret; in cluster mode the `blobs` schema, apart from the
 * modules' schemas, so every instance opens what any sealed. The app key is the additional
 * data, so a ciphertext cannot be moved to another key's record.
 */
import { Buffer } from "node:buffer";
import type { BlobStore } from "../../lib/blobs/types.ts";

const encodeBase64 = (b: Uint8Array) => Buffer.from(b).toString("base64");
const decodeBase64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));

export interface SealedSecret {
  iv: string;
  data: string;
}

export class SecretBox {
  private key?: Promise<CryptoKey>;

  constructor(private readonly blobs: BlobStore, private readonly keyName = SECRET_KEY_BLOB) {}

  async seal(appKey: string, secret: string): Promise<SealedSecret> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(appKey) },
      await this.serverKey(),
      new TextEncoder().encode(secret),
    );
    return { iv: encodeBase64(iv), data: encodeBase64(new Uint8Array(data)) };
  }

  async open(appKey: string, sealed: SealedSecret): Promise<string> {
    const plain = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: decodeBase64(sealed.iv),
        additionalData: new TextEncoder().encode(appKey),
      },
      await this.serverKey(),
      decodeBase64(sealed.data),
    );
    return new TextDecoder().decode(plain);
  }

  private serverKey(): Promise<CryptoKey> {
    return this.key ??= this.loadKey();
  }

  private async loadKey(): Promise<CryptoKey> {
    const raw = await readOrCreate(this.blobs, this.keyName);
    return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  }
}

/** The server key's blob (DATA_DIR/openapi/secret.key in single mode). */
export const SECRET_KEY_BLOB = "openapi/secret.key";

/** The key's 32 bytes; created once (putNew) so two processes or instances cannot both win. */
async function readOrCreate(blobs: BlobStore, key: string): Promise<Uint8Array<ArrayBuffer>> {
  const raw = await blobs.bytes(key);
  if (raw) {
    if (raw.length !== 32) throw new Error(`${key}: expected 32 bytes, found ${raw.length}`);
    return new Uint8Array(raw);
  }
  const fresh = crypto.getRandomValues(new Uint8Array(32));
  if (await blobs.putNew(key, fresh)) return fresh;
  return readOrCreate(blobs, key);
}
