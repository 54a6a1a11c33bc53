/**
 * A user's own report list (/reportList, /addReport): report names in the order the user
 * added them. Only reports that exist are kept, so a list saved before a report was renamed
 * or removed never shows a dead link.
 */
import type { Session } from "../../lib/http/env.ts";
import { REPORT_NAMES, type ReportName } from "./model.ts";
import type { MyReportsStore } from "./my_reports_store.ts";

const KNOWN = new Set<string>(REPORT_NAMES);

export class MyReports {
  constructor(private readonly store: MyReportsStore) {}

  /** The caller's list: the logged-in account's own (a virtual account keeps its own). */
  async list(session: Session): Promise<ReportName[]> {
    const saved = await this.store.get(session.accountId);
    return (saved ?? []).filter((n): n is ReportName => KNOWN.has(n));
  }

  /** Replaces the caller's list (names are validated by the route; duplicates dropped). */
  async save(session: Session, names: ReportName[]): Promise<ReportName[]> {
    const unique = [...new Set(names)].filter((n) => KNOWN.has(n));
    await this.store.set(session.accountId, unique);
    return unique;
  }
}
