/**
 * Single mode's blob store: `key` is the file DATA_DIR/`key`, the very paths earlier versions
 * wrote, so an installation keeps its files. Writes go to a temporary name in the same folder
 * and are renamed into place, so a reader never sees half a file.
 */
import { dirname, join } from "node:path";
import {
  type BlobInfo,
  type BlobStore,
  checkKey,
  checkPrefix,
  type StoredBlob,
  typeOfKey,
} from "./types.ts";

export class FsBlobStore implements BlobStore {
  readonly kind = "files";

  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checkKey(key));
  }

  async put(key: string, body: Uint8Array | ReadableStream<Uint8Array>): Promise<number> {
    const path = this.path(key);
    await Deno.mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.part`;
    try {
      if (body instanceof Uint8Array) await Deno.writeFile(temp, body);
      else await Deno.writeFile(temp, body);
      await Deno.rename(temp, path);
    } catch (e) {
      await Deno.remove(temp).catch(() => {});
      throw e;
    }
    return (await Deno.stat(path)).size;
  }

  async putNew(key: string, bytes: Uint8Array): Promise<boolean> {
    const path = this.path(key);
    await Deno.mkdir(dirname(path), { recursive: true });
    try {
      await Deno.writeFile(path, bytes, { createNew: true, mode: 0o600 });
      return true;
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists) return false;
      throw e;
    }
  }

  async putFile(key: string, source: string): Promise<number> {
    const path = this.path(key);
    if (source !== path) {
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.rename(source, path);
    }
    return (await Deno.stat(path)).size;
  }

  async get(key: string): Promise<StoredBlob | null> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.path(key));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
    try {
      const stat = await file.stat();
      if (!stat.isFile) {
        file.close();
        return null;
      }
      return { size: stat.size, type: typeOfKey(key), stream: file.readable };
    } catch (e) {
      file.close();
      throw e;
    }
  }

  async bytes(key: string): Promise<Uint8Array<ArrayBuffer> | null> {
    try {
      return await Deno.readFile(this.path(key));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await Deno.remove(this.path(key)).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    checkPrefix(prefix);
    // Walk the deepest folder the prefix names; filter the rest by the key's text.
    const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
    const out: BlobInfo[] = [];
    const walk = async (rel: string) => {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(join(this.root, rel)));
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return;
        throw e;
      }
      for (const e of entries) {
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory) await walk(key);
        else if (e.isFile && key.startsWith(prefix) && !key.endsWith(".part")) {
          out.push({ key, size: (await Deno.stat(join(this.root, key))).size });
        }
      }
    };
    await walk(folder);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
