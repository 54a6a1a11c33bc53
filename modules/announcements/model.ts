/**
 * Announcements (spec console §3 announcementList, §7 the pop-up window check): an
 * administrator or distributor posts one to its subtree for a period; each user sees a new one
 * once in a pop-up and all of them in /announcements. Shared by the API and the pages.
 */
import { ACCOUNT_TYPES } from "../accounts/model.ts";

export const IMPORTANCE = ["normal", "important"] as const;
export type Importance = typeof IMPORTANCE[number];

export const MAX_TITLE = 100;
export const MAX_BODY = 2000;
/** Longest period of one announcement. */
export const MAX_PERIOD_DAYS = 366;
/** Announcements an account may have posted at once (expired ones included until deleted). */
export const MAX_POSTED = 200;

/** Account types that may post (administrators and distributors). */
export const POSTER_TYPES: readonly number[] = [
  ACCOUNT_TYPES.administrator,
  ACCOUNT_TYPES.distributor,
];

export interface Announcement {
  /** Time-ordered. */
  id: string;
  /** The account whose subtree receives it (the poster's own account, or a virtual poster's master). */
  ownerId: string;
  /** Login name of the account that posted it. */
  postedBy: string;
  title: string;
  body: string;
  importance: Importance;
  startTime: string;
  endTime: string;
  createdAt: string;
}

/** An announcement as a user sees it. */
export interface AnnouncementView extends Announcement {
  /** Posted by the caller's own account (it manages it; it is not shown to it in a pop-up). */
  mine: boolean;
  /** Seen in the pop-up (or dismissed) by this user. */
  seen: boolean;
  /** Within its period now. */
  active: boolean;
}

/** The pop-up window check's answer. */
export interface ShowWindow {
  show: boolean;
  announcements: AnnouncementView[];
}
