import type { EmbedSettings } from "./model.ts";

/**
 * Embed settings per account and the key index.
 * Keys: ["embed", "settings", accountId] EmbedSettings,
 *       ["embed", "key", key] accountId.
 */
export class EmbedStore {
  constructor(private readonly kv: Deno.Kv) {}

  async settings(accountId: string): Promise<EmbedSettings> {
    return (await this.kv.get<EmbedSettings>(["embed", "settings", accountId])).value ??
      { origins: [], keys: [] };
  }

  /** Saves the settings and the key index in one commit (added keys in, removed keys out). */
  async save(accountId: string, before: EmbedSettings, after: EmbedSettings): Promise<boolean> {
    const key = ["embed", "settings", accountId];
    const current = await this.kv.get<EmbedSettings>(key);
    if (JSON.stringify(current.value ?? { origins: [], keys: [] }) !== JSON.stringify(before)) {
      return false;
    }
    const op = this.kv.atomic().check(current).set(key, after);
    const kept = new Set(after.keys.map((k) => k.key));
    for (const k of before.keys) if (!kept.has(k.key)) op.delete(["embed", "key", k.key]);
    for (const k of after.keys) op.set(["embed", "key", k.key], accountId);
    return (await op.commit()).ok;
  }

  async accountOf(key: string): Promise<string | null> {
    return (await this.kv.get<string>(["embed", "key", key])).value;
  }
}
