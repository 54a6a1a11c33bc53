/**
 * Records an account owns, one KV value each under `prefix` + owner id + record id: the
 * command templates and the working-mode templates. Each area's store.ts names its prefix, so
 * its keys stay declared there.
 */
export class OwnedRecords<T extends { ownerId: string; id: string; createdAt: number }> {
  constructor(private readonly kv: Deno.Kv, private readonly prefix: readonly string[]) {}

  private key(ownerId: string, id: string): Deno.KvKey {
    return [...this.prefix, ownerId, id];
  }

  /** The owner's records by creation time, oldest first (newest first with `newestFirst`). */
  async list(ownerId: string, newestFirst = false): Promise<T[]> {
    const out: T[] = [];
    for await (const e of this.kv.list<T>({ prefix: [...this.prefix, ownerId] })) {
      out.push(e.value);
    }
    const order = newestFirst ? -1 : 1;
    return out.sort((a, b) => order * (a.createdAt - b.createdAt));
  }

  async get(ownerId: string, id: string): Promise<T | null> {
    return (await this.kv.get<T>(this.key(ownerId, id))).value;
  }

  async save(record: T): Promise<void> {
    await this.kv.set(this.key(record.ownerId, record.id), record);
  }

  /** False when the owner has no such record. */
  async remove(ownerId: string, id: string): Promise<boolean> {
    const current = await this.kv.get(this.key(ownerId, id));
    if (!current.value) return false;
    await this.kv.delete(this.key(ownerId, id));
    return true;
  }
}
