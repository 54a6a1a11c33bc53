/**
 * White-label host configurations and their images, with their rule: only an administrator
 * account (not a virtual user) reads the list or changes anything; a host's own
 * configuration is public (login pages show it).
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { ACCOUNT_TYPES } from "../accounts/model.ts";
import type { DomainImages } from "./images.ts";
import type { DomainConfig } from "./model.ts";
import type { DomainStore } from "./store.ts";

export class DomainService {
  constructor(
    private readonly store: DomainStore,
    private readonly access: AccessGuard,
    private readonly images: DomainImages,
  ) {}

  /** Refuses everyone but an administrator account itself. */
  async assertAdmin(session: Session): Promise<void> {
    const { self, owner } = await this.access.caller(session);
    if (self.virtual || owner.accountType !== ACCOUNT_TYPES.administrator) {
      throw new BizError("permissionDenied");
    }
  }

  /** The configuration a host shows (its own, else the fallback, else the defaults). */
  forHost(host: string): Promise<DomainConfig> {
    return this.store.forHost(host);
  }

  async list(session: Session): Promise<DomainConfig[]> {
    await this.assertAdmin(session);
    return this.store.list();
  }

  /** Saves a host's configuration, then drops images no configuration names any more. */
  async save(session: Session, config: DomainConfig): Promise<void> {
    await this.assertAdmin(session);
    await this.store.save(config);
    await this.images.prune();
  }

  async remove(session: Session, host: string): Promise<void> {
    await this.assertAdmin(session);
    await this.store.remove(host);
    await this.images.prune();
  }

  /** Keeps an uploaded image (checked by content); its stored facts. */
  async addImage(session: Session, bytes: Uint8Array, name: string) {
    await this.assertAdmin(session);
    return this.images.add(bytes, name, session.accountId);
  }

  /** An uploaded image as a response, or null (images.ts). */
  serveImage(name: string): Promise<Response | null> {
    return this.images.serve(name);
  }
}
