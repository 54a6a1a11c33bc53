/** The monitor area's KV keys: share links. The only file that touches them. */

export interface ShareLink {
  token: string;
  imei: string;
  /** The account that created the link. */
  createdBy: string;
  createdAt: number;
  expiresAt: number;
}

const K = {
  link: (token: string) => ["monitor", "share", token],
  byDevice: (imei: string, token?: string) =>
    token === undefined
      ? ["monitor", "shareByDevice", imei]
      : ["monitor", "shareByDevice", imei, token],
};

/** Links are kept a day past expiry so an old link says "expired" rather than "unknown". */
const KEEP_AFTER_EXPIRY_MS = 24 * 3600_000;

export class MonitorStore {
  constructor(private readonly kv: Deno.Kv) {}

  async saveShare(link: ShareLink): Promise<void> {
    const expireIn = Math.max(1, link.expiresAt - Date.now() + KEEP_AFTER_EXPIRY_MS);
    const res = await this.kv.atomic()
      .set(K.link(link.token), link, { expireIn })
      .set(K.byDevice(link.imei, link.token), link.expiresAt, { expireIn })
      .commit();
    if (!res.ok) throw new Error("share link commit failed");
  }

  async share(token: string): Promise<ShareLink | null> {
    return (await this.kv.get<ShareLink>(K.link(token))).value;
  }

  async sharesOf(imei: string, limit = 50): Promise<ShareLink[]> {
    const tokens: string[] = [];
    for await (const e of this.kv.list({ prefix: K.byDevice(imei) }, { limit })) {
      tokens.push(e.key.at(-1) as string);
    }
    if (!tokens.length) return [];
    const got = await this.kv.getMany<ShareLink[]>(tokens.map(K.link));
    return got.flatMap((e) => e.value ? [e.value] : []).sort((a, b) => b.createdAt - a.createdAt);
  }

  async deleteShare(link: ShareLink): Promise<void> {
    await this.kv.atomic().delete(K.link(link.token)).delete(K.byDevice(link.imei, link.token))
      .commit();
  }
}
