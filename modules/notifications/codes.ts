import { BizError } from "../../lib/errors.ts";

const CODE_TTL_MS = 10 * 60_000;
const RESEND_AFTER_MS = 60_000;
const MAX_ATTEMPTS = 5;

interface StoredCode {
  hash: string;
  sentAt: number;
  attempts: number;
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Conflicting checks retry this often before the code is refused as "system busy". */
const MAX_COMMIT_TRIES = 200;

/**
 * Six-digit codes mailed to an address, for a purpose (verify an alert address, recover a
 * password). Stored hashed with a 10-minute life; one send a minute per address and
 * purpose; at most five checks per code, each counted atomically before the comparison, so
 * parallel guesses cannot exceed it: the sixth check burns the code, even a right one.
 * Keys: ["notifications", "code", purpose, owner, address] StoredCode (expires by KV TTL),
 *       ["notifications", "verified", owner, address] true.
 */
export class CodeStore {
  constructor(private readonly kv: Deno.Kv) {}

  private key(purpose: string, owner: string, address: string) {
    return ["notifications", "code", purpose, owner, address.toLowerCase()];
  }

  /** Draws a new code (refusing resends within a minute); the caller mails it. */
  async issue(purpose: string, owner: string, address: string): Promise<string> {
    const key = this.key(purpose, owner, address);
    const prev = await this.kv.get<StoredCode>(key);
    if (prev.value && Date.now() - prev.value.sentAt < RESEND_AFTER_MS) {
      throw new BizError("requestTooOften");
    }
    const n = crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000;
    const code = String(n).padStart(6, "0");
    await this.kv.set(key, { hash: await sha256(code), sentAt: Date.now(), attempts: 0 }, {
      expireIn: CODE_TTL_MS,
    });
    return code;
  }

  /** Checks a code once; a right code is used up. */
  async check(purpose: string, owner: string, address: string, code: string): Promise<boolean> {
    const key = this.key(purpose, owner, address);
    const slot = await this.countCheck(key);
    if (!slot) return false;
    if (slot.hash !== await sha256(code.trim())) {
      // The last allowed check was wrong: nothing can use the code any more.
      if (slot.attempts >= MAX_ATTEMPTS) await this.kv.delete(key);
      return false;
    }
    return await this.useUp(key, slot.sentAt);
  }

  /**
   * Counts one check of the code under `key` (a versionstamp-checked commit); the code as
   * counted, or null when there is none, it expired, or its checks are spent (then it is
   * deleted).
   */
  private async countCheck(key: Deno.KvKey): Promise<StoredCode | null> {
    for (let i = 0; i < MAX_COMMIT_TRIES; i++) {
      const got = await this.kv.get<StoredCode>(key);
      const v = got.value;
      if (!v || Date.now() - v.sentAt > CODE_TTL_MS) return null;
      if (v.attempts >= MAX_ATTEMPTS) {
        await this.kv.atomic().check(got).delete(key).commit();
        return null;
      }
      const next = { ...v, attempts: v.attempts + 1 };
      const expireIn = Math.max(1, v.sentAt + CODE_TTL_MS - Date.now());
      if ((await this.kv.atomic().check(got).set(key, next, { expireIn }).commit()).ok) {
        return next;
      }
      await new Promise((r) => setTimeout(r, Math.random() * 4));
    }
    throw new BizError("systemBusy");
  }

  /**
   * Deletes the code a right check was counted for; true only for the check that deleted it,
   * so two parallel right checks use one code once.
   */
  private async useUp(key: Deno.KvKey, sentAt: number): Promise<boolean> {
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
      .value ===
      true;
  }
}
