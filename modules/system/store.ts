/** The store's own health: what GET /health reads to tell the store answers. */
export class SystemStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** One read of a fixed key; throws when the store cannot answer. */
  async ping(): Promise<void> {
    await this.kv.get(["health"]);
  }
}
