/**
 * The business log (spec: Help and logs, /businessLogs): every business operation (a state-
 * changing API call that succeeded, lib/http/api.ts changesState) with who did it, on which
 * account or device, what, when and from which address. Shared by the API and the page.
 */

/** Entries are kept this long, then removed by the daily job. */
export const KEEP_DAYS = 180;
/** Rows of one xlsx export. */
export const MAX_EXPORT_ROWS = 30_000;
/** Characters of an entry's detail (the request, secrets masked). */
export const MAX_DETAIL = 400;

/** One stored operation. */
export interface BusinessLogEntry {
  /** Time-ordered: the ISO time, then a random suffix. */
  id: string;
  time: string;
  /** The logged-in account (a virtual account's own id) and its login name then. */
  actorId: string;
  account: string;
  /** The route (its path and method) and its area (the route's tag). */
  route: string;
  area: string;
  /** Accounts and devices the call named, in words (login names, IMEIs). */
  target: string;
  /** The request, compact JSON with passwords, secrets and codes masked. */
  detail: string;
  ip: string;
}

/** A row of the list: `action` is the area in the caller's language and the operation. */
export interface BusinessLogRow {
  time: string;
  account: string;
  action: string;
  target: string;
  detail: string;
  ip: string;
}

export interface BusinessLogQuery {
  startTime?: string;
  endTime?: string;
  keyword?: string;
}
