import { BizError } from "../../lib/errors.ts";
import type { MessagePrefs, PlatformMessage } from "./messages.ts";

/** A mailed code as stored: its hash, when it was sent, how many checks it had. */
export interface StoredCode {
  hash: string;
  sentAt: number;
  attempts: number;
}

/** Conflicting checks retry this often before the code is refused as "system busy". */
const MAX_COMMIT_TRIES = 200;

/**
 * Mailed codes and verified addresses (codes.ts holds the rules).
 * Keys: ["notifications", "code", purpose, owner, address] StoredCode (expires by KV TTL),
 *       ["notifications", "verified", owner, address] true.
 */
export class CodeRecords {
  constructor(private readonly kv: Deno.Kv) {}

  private key(purpose: string, owner: string, address: string): Deno.KvKey {
    return ["notifications", "code", purpose, owner, address.toLowerCase()];
  }

  async get(purpose: string, owner: string, address: string): Promise<StoredCode | null> {
    return (await this.kv.get<StoredCode>(this.key(purpose, owner, address))).value;
  }

  async put(purpose: string, owner: string, address: string, code: StoredCode, ttlMs: number) {
    await this.kv.set(this.key(purpose, owner, address), code, { expireIn: ttlMs });
  }

  async remove(purpose: string, owner: string, address: string): Promise<void> {
    await this.kv.delete(this.key(purpose, owner, address));
  }

  /**
   * Counts one check of a code (a versionstamp-checked commit); the code as counted, or null
   * when there is none, it is older than `ttlMs`, or its `maxAttempts` checks are spent (then
   * it is deleted).
   */
  async countCheck(
    purpose: string,
    owner: string,
    address: string,
    ttlMs: number,
    maxAttempts: number,
  ): Promise<StoredCode | null> {
    const key = this.key(purpose, owner, address);
    for (let i = 0; i < MAX_COMMIT_TRIES; i++) {
      const got = await this.kv.get<StoredCode>(key);
      const v = got.value;
      if (!v || Date.now() - v.sentAt > ttlMs) return null;
      if (v.attempts >= maxAttempts) {
        await this.kv.atomic().check(got).delete(key).commit();
        return null;
      }
      const next = { ...v, attempts: v.attempts + 1 };
      const expireIn = Math.max(1, v.sentAt + ttlMs - Date.now());
      if ((await this.kv.atomic().check(got).set(key, next, { expireIn }).commit()).ok) {
        return next;
      }
      await new Promise((r) => setTimeout(r, Math.random() * 4));
    }
    throw new BizError("systemBusy");
  }

  /**
   * Deletes the code sent at `sentAt`; true only for the call that deleted it, so two
   * parallel right checks use one code once.
   */
  async useUp(purpose: string, owner: string, address: string, sentAt: number): Promise<boolean> {
    const key = this.key(purpose, owner, address);
    for (let i = 0; i < MAX_COMMIT_TRIES; i++) {
      const got = await this.kv.get<StoredCode>(key);
      // Gone, burnt by a sixth check, or replaced by a newly sent code.
      if (!got.value || got.value.sentAt !== sentAt) return false;
      if ((await this.kv.atomic().check(got).delete(key).commit()).ok) return true;
    }
    throw new BizError("systemBusy");
  }

  async markVerified(owner: string, address: string): Promise<void> {
    await this.kv.set(["notifications", "verified", owner, address.toLowerCase()], true);
  }

  async isVerified(owner: string, address: string): Promise<boolean> {
    return (await this.kv.get(["notifications", "verified", owner, address.toLowerCase()]))
      .value === true;
  }
}

const MESSAGE_TTL_MS = 180 * 86_400_000;
const ONCE_TTL_MS = 400 * 86_400_000;

/**
 * The message center's messages and preferences (messages.ts holds the rules).
 * Keys: ["messages", userId, createdAt, id] PlatformMessage (kept 180 days);
 * ["messageOnce", ...key] id of the message a once-only reminder posted (kept 400 days);
 * ["messagePrefs", userId] MessagePrefs.
 */
export class MessageRecords {
  constructor(private readonly kv: Deno.Kv) {}

  async save(m: PlatformMessage): Promise<void> {
    await this.kv.set(["messages", m.userId, m.createdAt, m.id], m, { expireIn: MESSAGE_TTL_MS });
  }

  /** Saves unless `once` was used before; false when it was. */
  async saveOnce(once: readonly (string | number)[], m: PlatformMessage): Promise<boolean> {
    const key = ["messageOnce", ...once];
    const r = await this.kv.atomic()
      .check({ key, versionstamp: null })
      .set(key, m.id, { expireIn: ONCE_TTL_MS })
      .set(["messages", m.userId, m.createdAt, m.id], m, { expireIn: MESSAGE_TTL_MS })
      .commit();
    return r.ok;
  }

  /** The account's messages, newest first. */
  async *list(userId: string, newestFirst = true): AsyncGenerator<PlatformMessage> {
    const iter = this.kv.list<PlatformMessage>({ prefix: ["messages", userId] }, {
      reverse: newestFirst,
    });
    for await (const e of iter) yield e.value;
  }

  async prefs(userId: string): Promise<Partial<MessagePrefs> | null> {
    return (await this.kv.get<MessagePrefs>(["messagePrefs", userId])).value;
  }

  async savePrefs(userId: string, prefs: MessagePrefs): Promise<void> {
    await this.kv.set(["messagePrefs", userId], prefs);
  }

  /** Every account's saved preferences. */
  async *allPrefs(): AsyncGenerator<[string, Partial<MessagePrefs>]> {
    for await (const e of this.kv.list<MessagePrefs>({ prefix: ["messagePrefs"] })) {
      yield [String(e.key[1]), e.value];
    }
  }
}
