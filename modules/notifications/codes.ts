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

/**
 * Six-digit codes mailed to an address, for a purpose (verify an alert address, recover a
 * password). Stored hashed with a 10-minute life; one send a minute per address and
 * purpose; five wrong tries burn the code.
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
    const got = await this.kv.get<StoredCode>(key);
    if (!got.value || Date.now() - got.value.sentAt > CODE_TTL_MS) return false;
    if (got.value.hash === await sha256(code.trim())) {
      await this.kv.delete(key);
      return true;
    }
    const attempts = got.value.attempts + 1;
    if (attempts >= MAX_ATTEMPTS) await this.kv.delete(key);
    else await this.kv.set(key, { ...got.value, attempts }, { expireIn: CODE_TTL_MS });
    return false;
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
