import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import { isExpired } from "../auth/service.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import { collectObjects } from "../monitor/objects.ts";
import {
  EMBED_MAX_DEVICES,
  EMBED_MAX_KEYS,
  EMBED_MAX_ORIGINS,
  type EmbedSettings,
  normalizeOrigin,
} from "./model.ts";
import type { EmbedStore } from "./store.ts";

function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_");
}

/**
 * Read-only embed keys (an account's live map in another site's iframe) and the origins that
 * may frame it. A key opens nothing once revoked or once its account has expired (a trial
 * account's embedded map ends with it). Keys and origins belong to the real account a
 * session works as; virtual accounts may not publish (they are refused before this).
 */
export class EmbedService {
  constructor(
    private readonly d: {
      store: EmbedStore;
      access: AccessGuard;
      accounts: AccountLookup;
      directory: DeviceDirectory;
      offlineMs: number;
    },
  ) {}

  async settings(session: Session): Promise<EmbedSettings> {
    return await this.d.store.settings(session.cAccountId);
  }

  async createKey(session: Session, label: string): Promise<EmbedSettings> {
    return await this.change(session, (s) => {
      if (s.keys.length >= EMBED_MAX_KEYS) {
        throw new BizError("dataExists", {}, { max: EMBED_MAX_KEYS });
      }
      return {
        ...s,
        keys: [...s.keys, { key: newKey(), label, createdAt: new Date().toISOString() }],
      };
    });
  }

  async revokeKey(session: Session, key: string): Promise<EmbedSettings> {
    return await this.change(session, (s) => {
      if (!s.keys.some((k) => k.key === key)) throw new BizError("embedKeyInvalid");
      return { ...s, keys: s.keys.filter((k) => k.key !== key) };
    });
  }

  async setOrigins(session: Session, origins: string[]): Promise<EmbedSettings> {
    const clean: string[] = [];
    for (const [i, o] of origins.entries()) {
      const n = normalizeOrigin(o);
      if (!n) {
        throw new BizError("illegalParameter", { reason: o }, { field: `origins.${i}` });
      }
      if (!clean.includes(n)) clean.push(n);
    }
    if (clean.length > EMBED_MAX_ORIGINS) throw new BizError("illegalParameter");
    return await this.change(session, (s) => ({ ...s, origins: clean }));
  }

  /** The account a key opens, and who may frame it; refused when revoked or expired. */
  async open(key: string): Promise<{ accountId: string; origins: string[] }> {
    const accountId = /^[\w-]{20,64}$/.test(key) ? await this.d.store.accountOf(key) : null;
    const account = accountId ? await this.d.accounts.get(accountId) : null;
    if (!account || isExpired(account.expiration)) throw new BizError("embedKeyInvalid");
    return { accountId: account.id, origins: (await this.d.store.settings(account.id)).origins };
  }

  /** The map objects of the key's account's own devices (read-only, no facts). */
  async objects(key: string) {
    const { accountId } = await this.open(key);
    const devices = this.d.directory.ownedBy(accountId).slice(0, EMBED_MAX_DEVICES);
    return collectObjects(this.d.directory, devices, this.d.offlineMs);
  }

  /** Who may frame a share link's embed: the origins of the account that made the link. */
  async originsFor(accountId: string): Promise<string[]> {
    const account = await this.d.accounts.get(accountId);
    const owner = account?.virtual ? account.virtual.masterId : accountId;
    return (await this.d.store.settings(owner)).origins;
  }

  private async change(session: Session, fn: (s: EmbedSettings) => EmbedSettings) {
    const { self } = await this.d.access.caller(session);
    if (self.virtual) throw new BizError("permissionDenied");
    for (let i = 0; i < 5; i++) {
      const before = await this.d.store.settings(self.id);
      const after = fn(before);
      if (await this.d.store.save(self.id, before, after)) return after;
    }
    throw new BizError("systemBusy");
  }
}
