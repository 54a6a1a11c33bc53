import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import {
  type Announcement,
  type AnnouncementView,
  type Importance,
  MAX_PERIOD_DAYS,
  MAX_POSTED,
  POSTER_TYPES,
  type ShowWindow,
} from "./model.ts";
import type { AnnouncementStore } from "./store.ts";

const DAY_MS = 86_400_000;

export interface NewAnnouncement {
  title: string;
  body: string;
  importance: Importance;
  startTime: string;
  endTime: string;
}

/** Newest first by start, then by posting. */
const newestFirst = (a: Announcement, b: Announcement) =>
  b.startTime.localeCompare(a.startTime) || b.id.localeCompare(a.id);

/**
 * Announcements: administrators and distributors post to their subtree; a user receives those
 * of its ancestors, sees each new one once in the pop-up, and all in the list.
 */
export class AnnouncementService {
  constructor(
    private readonly store: AnnouncementStore,
    private readonly access: AccessGuard,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async post(session: Session, input: NewAnnouncement): Promise<Announcement> {
    const { self, owner } = await this.access.caller(session);
    if (!POSTER_TYPES.includes(owner.accountType)) throw new BizError("permissionDenied");
    const start = new Date(input.startTime), end = new Date(input.endTime);
    if (start >= end) throw new BizError("startAfterEnd");
    if (end.getTime() - start.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
      throw new BizError("playbackRangeTooLong", { days: MAX_PERIOD_DAYS });
    }
    if (await this.store.countOf(owner.id) >= MAX_POSTED) {
      throw new BizError("quantityLimitExceeded", { limit: MAX_POSTED });
    }
    const now = this.now().toISOString();
    const a: Announcement = {
      id: `${now.replace(/\D/g, "")}${crypto.randomUUID().slice(0, 6)}`,
      ownerId: owner.id,
      postedBy: self.account,
      title: input.title,
      body: input.body,
      importance: input.importance,
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      createdAt: now,
    };
    await this.store.save(a);
    return a;
  }

  /** The caller's own announcements and those it received that have started, newest first. */
  async list(session: Session): Promise<AnnouncementView[]> {
    const now = this.now().toISOString();
    return (await this.views(session)).filter((a) => a.mine || a.startTime <= now);
  }

  /** Received announcements within their period (the current user's announcementList). */
  async current(session: Session): Promise<AnnouncementView[]> {
    return (await this.views(session)).filter((a) => !a.mine && a.active);
  }

  /** The pop-up window check: the current announcements this user has not seen yet. */
  async showWindow(session: Session): Promise<ShowWindow> {
    const announcements = (await this.current(session)).filter((a) => !a.seen);
    return { show: announcements.length > 0, announcements };
  }

  /** Marks received announcements seen by the logged-in account; other ids change nothing. */
  async markSeen(session: Session, ids: string[]): Promise<void> {
    const received = new Set((await this.views(session)).filter((a) => !a.mine).map((a) => a.id));
    const mine = ids.filter((id) => received.has(id));
    if (!mine.length) return;
    await this.store.markSeen(
      session.accountId,
      mine,
      this.now().toISOString(),
      (MAX_PERIOD_DAYS + 30) * DAY_MS,
    );
  }

  /** Deletes one of the caller's own announcements (another's answers as a missing one). */
  async delete(session: Session, id: string): Promise<void> {
    const { owner } = await this.access.caller(session);
    if (!POSTER_TYPES.includes(owner.accountType)) throw new BizError("permissionDenied");
    if (!(await this.store.get(owner.id, id))) throw new BizError("dataNotExists");
    await this.store.delete(owner.id, id);
  }

  private async views(session: Session): Promise<AnnouncementView[]> {
    const { owner } = await this.access.caller(session);
    const ancestors = owner.fullParentId.split(",").filter(Boolean);
    const [items, seen] = await Promise.all([
      this.store.ofOwners([...ancestors, owner.id]),
      this.store.seenBy(session.accountId),
    ]);
    const now = this.now().toISOString();
    return items.sort(newestFirst).map((a) => ({
      ...a,
      mine: a.ownerId === owner.id,
      seen: seen.has(a.id),
      active: a.startTime <= now && now < a.endTime,
    }));
  }
}
