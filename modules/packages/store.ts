import type { Package } from "./model.ts";

/** KV keys: package ownerId, id → Package. */
const K = {
  pkg: (ownerId: string, id?: string) => id ? ["packages", ownerId, id] : ["packages", ownerId],
};

export class PackageStore {
  constructor(private readonly kv: Deno.Kv) {}

  async get(ownerId: string, id: string): Promise<Package | null> {
    return (await this.kv.get<Package>(K.pkg(ownerId, id))).value;
  }

  /** Packages offered by one account, oldest first. */
  async ofOwner(ownerId: string): Promise<Package[]> {
    const out: Package[] = [];
    for await (const e of this.kv.list<Package>({ prefix: K.pkg(ownerId) })) out.push(e.value);
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async put(p: Package): Promise<void> {
    await this.kv.set(K.pkg(p.ownerId, p.id), p);
  }

  async delete(ownerId: string, id: string): Promise<void> {
    await this.kv.delete(K.pkg(ownerId, id));
  }
}
