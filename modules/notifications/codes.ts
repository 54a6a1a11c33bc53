import { BizError } from "../../lib/errors.ts";
import type { CodeRecords } from "./store.ts";

const CODE_TTL_MS = 10 * 60_000;
const RESEND_AFTER_MS = 60_000;
const MAX_ATTEMPTS = 5;

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Six-digit codes mailed to an address, for a purpose (verify an alert address, recover a
 * password). Stored hashed with a 10-minute life; one send a minute per address and
 * purpose; at most five checks per code, each counted atomically before the comparison, so
 * parallel guesses cannot exceed it: the sixth check burns the code, even a right one.
 * Kept in CodeRecords (store.ts).
 */
export class CodeStore {
  constructor(private readonly records: CodeRecords) {}

  /** Draws a new code (refusing resends within a minute); the caller mails it. */
  async issue(purpose: string, owner: string, address: string): Promise<string> {
    const prev = await this.records.get(purpose, owner, address);
    if (prev && Date.now() - prev.sentAt < RESEND_AFTER_MS) {
      throw new BizError("requestTooOften");
    }
    const n = crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000;
    const code = String(n).padStart(6, "0");
    const stored = { hash: await sha256(code), sentAt: Date.now(), attempts: 0 };
    await this.records.put(purpose, owner, address, stored, CODE_TTL_MS);
    return code;
  }

  /** Checks a code once; a right code is used up. */
  async check(purpose: string, owner: string, address: string, code: string): Promise<boolean> {
    // Counted before the comparison, so parallel guesses cannot exceed MAX_ATTEMPTS.
    const slot = await this.records.countCheck(
      purpose,
      owner,
      address,
      CODE_TTL_MS,
      MAX_ATTEMPTS,
    );
    if (!slot) return false;
    if (slot.hash !== await sha256(code.trim())) {
      // The last allowed check was wrong: nothing can use the code any more.
      if (slot.attempts >= MAX_ATTEMPTS) await this.records.remove(purpose, owner, address);
      return false;
    }
    return await this.records.useUp(purpose, owner, address, slot.sentAt);
  }

  markVerified(owner: string, address: string): Promise<void> {
    return this.records.markVerified(owner, address);
  }

  isVerified(owner: string, address: string): Promise<boolean> {
    return this.records.isVerified(owner, address);
  }
}
