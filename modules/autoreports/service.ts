/**
 * Automatic reports of a user (spec business §3 "Auto report", §4, §5): add, change, delete
 * and list them, and read their history. Each belongs to the account that made it (a
 * virtual user's own id): another account asking for its id gets the answer an id that never
 * existed gets. Devices and the account they cover pass the shared access guard; one auto
 * report per report type per owner; type and frequency fixed once created.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceService } from "../devices/service.ts";
import { newTaskId } from "../tasks/model.ts";
import { REPORT_RANGE_DAYS } from "../reports/model.ts";
import { AUTO_REPORT_MAX_DEVICES, type AutoReportRow, type AutoReportRun } from "./model.ts";
import { checkParams } from "./params.ts";
import { latestSlot, PERIOD_DAYS } from "./schedule.ts";
import type { AddBody, UpdateBody } from "./schemas.ts";
import { modelDevices } from "./selection.ts";
import type { AutoReportStore } from "./store.ts";
import type { AutoReportRecord } from "./types.ts";

export interface AutoReportDeps {
  store: AutoReportStore;
  access: Pick<AccessGuard, "caller" | "visibleAccount">;
  devices: Pick<DeviceService, "visibleDevices">;
  directory: Pick<DeviceDirectory, "ownedBy">;
  accounts: Pick<AccountLookup, "get" | "getMany" | "subtree">;
  now?: () => number;
}

export class AutoReportService {
  constructor(private readonly d: AutoReportDeps) {}

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  /** The caller's own auto reports, oldest first, with their last run. */
  async list(session: Session): Promise<{ total: number; list: AutoReportRow[] }> {
    const records = await this.d.store.ofOwner(session.accountId);
    const logins = new Map(
      (await this.d.accounts.getMany([...new Set(records.map((r) => r.userId))]))
        .map((a) => [a.id, a.account]),
    );
    const list: AutoReportRow[] = [];
    for (const r of records) {
      const [last] = await this.d.store.runs(r.id, 1);
      list.push(toRow(r, logins.get(r.userId) ?? "", last));
    }
    return { total: list.length, list };
  }

  async add(session: Session, body: AddBody): Promise<{ id: string }> {
    const now = this.now();
    const record: AutoReportRecord = {
      id: newTaskId(now),
      ownerId: session.accountId,
      createdAt: now,
      updatedAt: now,
      ...(await this.checked(session, body)),
    };
    if (!await this.d.store.insert(record)) throw new BizError("autoReportTypeExists");
    return { id: record.id };
  }

  async update(session: Session, body: UpdateBody): Promise<{ id: string }> {
    const current = await this.own(session, body.id);
    if (body.reportType !== current.reportType) {
      throw new BizError("autoReportFixed", {}, { field: "reportType" });
    }
    if (body.frequency !== current.frequency) {
      throw new BizError("autoReportFixed", {}, { field: "frequency" });
    }
    const { id: _id, ...fields } = body;
    await this.d.store.update({
      ...current,
      ...(await this.checked(session, fields)),
      updatedAt: this.now(),
    });
    return { id: current.id };
  }

  /** Deletes the caller's own auto reports (the files stay in the task centre until they expire). */
  async delete(session: Session, ids: string[]): Promise<{ deleted: number }> {
    const records = [];
    for (const id of new Set(ids)) records.push(await this.own(session, id));
    for (const r of records) await this.d.store.delete(r);
    return { deleted: records.length };
  }

  async history(session: Session, id: string): Promise<{ total: number; list: AutoReportRun[] }> {
    await this.own(session, id);
    const list = (await this.d.store.runs(id)).map(({ id: _id, ...run }) => run);
    return { total: list.length, list };
  }

  /** The caller's own record, or the refusal an unknown id gets. */
  async own(session: Session, id: string): Promise<AutoReportRecord> {
    const r = await this.d.store.get(id);
    if (!r || r.ownerId !== session.accountId) throw new BizError("dataNotExists");
    return r;
  }

  /** The record's settings after every check: account, devices, range, report filters. */
  private async checked(
    session: Session,
    body: Omit<AddBody, "id">,
  ): Promise<Omit<AutoReportRecord, "id" | "ownerId" | "createdAt" | "updatedAt">> {
    const { self, owner } = await this.d.access.caller(session);
    const account = body.userId ? await this.d.access.visibleAccount(session, body.userId) : owner;
    const imeis = [...new Set(body.imeis)];
    const mcType = imeis.length ? null : body.mcType ?? null;
    if (imeis.length) await this.d.devices.visibleDevices(session, imeis);
    else if (mcType === null) {
      throw new BizError("autoReportDevicesMissing", {}, { field: "imeis" });
    } else {
      const found = await modelDevices(this.d, account.id, mcType, body.includeSubAccounts);
      if (found.length > AUTO_REPORT_MAX_DEVICES) {
        throw new BizError("autoReportTooManyDevices", { max: AUTO_REPORT_MAX_DEVICES });
      }
    }
    const days = REPORT_RANGE_DAYS[body.reportType];
    if (PERIOD_DAYS[body.frequency] > days) {
      throw new BizError("autoReportPeriodTooLong", { days }, { field: "frequency" });
    }
    const settings = {
      name: body.name,
      reportType: body.reportType,
      frequency: body.frequency,
      executionTime: body.executionTime,
      userId: account.id,
      imeis,
      mcType,
      emails: [...new Set(body.emails.map((e) => e.toLowerCase()))],
      includeSubAccounts: body.includeSubAccounts,
      batteryThreshold: body.batteryThreshold ?? null,
      timeField: body.timeField ?? null,
      params: body.params,
    };
    checkParams(
      settings,
      latestSlot(body.frequency, body.executionTime, self.timeZones || "UTC", this.now()),
    );
    return settings;
  }
}

function toRow(
  r: AutoReportRecord,
  account: string,
  last: AutoReportRun | undefined,
): AutoReportRow {
  return {
    id: r.id,
    name: r.name,
    reportType: r.reportType,
    frequency: r.frequency,
    executionTime: r.executionTime,
    userId: r.userId,
    account,
    imeis: r.imeis,
    mcType: r.mcType,
    emails: r.emails,
    includeSubAccounts: r.includeSubAccounts,
    batteryThreshold: r.batteryThreshold,
    timeField: r.timeField,
    params: r.params,
    createdAt: new Date(r.createdAt).toISOString(),
    lastRunAt: last?.runAt ?? null,
    lastStatus: last?.status ?? null,
  };
}
