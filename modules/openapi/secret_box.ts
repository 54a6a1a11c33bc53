/**
 * App secrets encrypted at rest (issue 22): MD5 signing needs the secret itself, so it cannot
 * be hashed like a password. AES-256-GCM with a server key kept in a file of its own,
 * DATA_DIR/openapi/secret.key (32 random bytes, created on first use, mode 0600), apart from
 * the KV file: a copy of the store alone (a backup) does not reveal any secret. The app key is
 * the additional data, so a ciphertext cannot be moved to another key's record.
 */
import { Buffer } from "node:buffer";

const encodeBase64 = (b: Uint8Array) => Buffer.from(b).toString("base64");
const decodeBase64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));

export interface SealedSecret {
  iv: string;
  data: string;
}

export class SecretBox {
  private key?: Promise<CryptoKey>;

  constructor(private readonly keyFile: string) {}

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
    const raw = await readOrCreate(this.keyFile);
    return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  }
}

/** The key file's 32 bytes; written once with createNew so two processes cannot both win. */
async function readOrCreate(path: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const raw = await Deno.readFile(path);
    if (raw.length !== 32) throw new Error(`${path}: expected 32 bytes, found ${raw.length}`);
    return new Uint8Array(raw);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")) || ".", { recursive: true });
  const fresh = crypto.getRandomValues(new Uint8Array(32));
  try {
    await Deno.writeFile(path, fresh, { createNew: true, mode: 0o600 });
    return fresh;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return readOrCreate(path);
    throw e;
  }
}
