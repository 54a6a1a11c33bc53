/**
 * Push endpoints of the Open API. Keys: ["openapi", "push", userId, id] → PushEndpoint.
 * Few per account; all are loaded at start so an event finds its endpoints without a read.
 */
import type { PushEndpoint } from "./push_model.ts";

const K = {
  one: (userId: string, id: string) => ["openapi", "push", userId, id],
  all: ["openapi", "push"],
};

export class PushStore {
  constructor(private readonly kv: Deno.Kv) {}

  async all(): Promise<PushEndpoint[]> {
    const out: PushEndpoint[] = [];
    for await (const e of this.kv.list<PushEndpoint>({ prefix: K.all })) out.push(e.value);
    return out;
  }

  async ofUser(userId: string): Promise<PushEndpoint[]> {
    const out: PushEndpoint[] = [];
    for await (const e of this.kv.list<PushEndpoint>({ prefix: [...K.all, userId] })) {
      out.push(e.value);
    }
    return out;
  }

  async save(e: PushEndpoint): Promise<void> {
    await this.kv.set(K.one(e.userId, e.id), e);
  }

  async remove(e: Pick<PushEndpoint, "userId" | "id">): Promise<void> {
    await this.kv.delete(K.one(e.userId, e.id));
  }
}
