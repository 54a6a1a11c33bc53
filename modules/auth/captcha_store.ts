/** A captcha challenge as stored: its code and when it stops counting. */
export interface StoredChallenge {
  code: string;
  expires: number;
}

const key = (id: string) => ["auth", "captcha", id];

/** Captcha challenges. Keys: ["auth", "captcha", id] → StoredChallenge (expires in KV too). */
export class CaptchaStore {
  constructor(private readonly kv: Deno.Kv) {}

  async put(id: string, challenge: StoredChallenge, ttlMs: number): Promise<void> {
    await this.kv.set(key(id), challenge, { expireIn: ttlMs });
  }

  /**
   * Deletes the challenge and returns it; null when there is none or another request took it
   * first (the delete is checked, so a challenge is used once).
   */
  async take(id: string): Promise<StoredChallenge | null> {
    const entry = await this.kv.get<StoredChallenge>(key(id));
    if (!entry.value) return null;
    const del = await this.kv.atomic().check(entry).delete(key(id)).commit();
    return del.ok ? entry.value : null;
  }
}
