/**
 * The auto reports' KV keys — the only file that touches them. A record, its owner's index
 * and the one-per-report-type key are written together; a run is claimed by creating its
 * slot key (check-and-set: the key must not exist), in the same commit as its history entry,
 * so a second cron tick, a second process or a restart never runs a slot twice.
 */
import type { ReportName } from "../reports/model.ts";
import type { AutoReportRecord, RunRecord } from "./types.ts";

const K = {
  record: (id: string) => ["autoReports", "record", id],
  records: ["autoReports", "record"],
  owned: (ownerId: string, id?: string) =>
    id === undefined ? ["autoReports", "owner", ownerId] : ["autoReports", "owner", ownerId, id],
  type: (ownerId: string, type: ReportName) => ["autoReports", "type", ownerId, type],
  claim: (id: string, slot: string) => ["autoReports", "claim", id, slot],
  claims: (id: string) => ["autoReports", "claim", id],
  run: (id: string, runId: string) => ["autoReports", "run", id, runId],
  runs: (id: string) => ["autoReports", "run", id],
};

export class AutoReportStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Adds a record; false when its owner already has one of the report type. */
  async insert(r: AutoReportRecord): Promise<boolean> {
    const res = await this.kv.atomic()
      .check({ key: K.type(r.ownerId, r.reportType), versionstamp: null })
      .set(K.type(r.ownerId, r.reportType), r.id)
      .set(K.record(r.id), r)
      .set(K.owned(r.ownerId, r.id), 1)
      .commit();
    return res.ok;
  }

  /** Replaces a record (type, frequency and owner never change). */
  async update(r: AutoReportRecord): Promise<void> {
    await this.kv.set(K.record(r.id), r);
  }

  async get(id: string): Promise<AutoReportRecord | null> {
    return (await this.kv.get<AutoReportRecord>(K.record(id))).value;
  }

  /** The owner's records, oldest first. */
  async ofOwner(ownerId: string): Promise<AutoReportRecord[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.owned(ownerId) })) {
      ids.push(e.key.at(-1) as string);
    }
    const out: AutoReportRecord[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const got = await this.kv.getMany<AutoReportRecord[]>(ids.slice(i, i + 10).map(K.record));
      for (const e of got) if (e.value) out.push(e.value);
    }
    return out;
  }

  /** Every record (the cron's due check). */
  async *all(): AsyncGenerator<AutoReportRecord> {
    for await (const e of this.kv.list<AutoReportRecord>({ prefix: K.records })) yield e.value;
  }

  /** Removes a record with its indexes, claims and history. */
  async delete(r: AutoReportRecord): Promise<void> {
    for (const prefix of [K.claims(r.id), K.runs(r.id)]) {
      for await (const e of this.kv.list({ prefix })) await this.kv.delete(e.key);
    }
    await this.kv.atomic().delete(K.record(r.id)).delete(K.owned(r.ownerId, r.id))
      .delete(K.type(r.ownerId, r.reportType)).commit();
  }

  /**
   * Claims a slot and records its run in one commit; false when the slot was claimed before
   * (by this process or another). A manual run (slot null) is recorded without a claim.
   */
  async claim(id: string, slot: string | null, run: RunRecord): Promise<boolean> {
    const op = this.kv.atomic();
    if (slot !== null) {
      op.check({ key: K.claim(id, slot), versionstamp: null }).set(K.claim(id, slot), run.id);
    }
    const res = await op.set(K.run(id, run.id), run).commit();
    return res.ok;
  }

  async saveRun(autoReportId: string, run: RunRecord): Promise<void> {
    await this.kv.set(K.run(autoReportId, run.id), run);
  }

  /** The runs, newest first. */
  async runs(id: string, limit = 1_000): Promise<RunRecord[]> {
    const out: RunRecord[] = [];
    const iter = this.kv.list<RunRecord>({ prefix: K.runs(id) }, { reverse: true, limit });
    for await (const e of iter) out.push(e.value);
    return out;
  }

  /** Drops the runs after the newest `keep`. */
  async trimRuns(id: string, keep: number): Promise<void> {
    let n = 0;
    for await (const e of this.kv.list({ prefix: K.runs(id) }, { reverse: true })) {
      if (++n > keep) await this.kv.delete(e.key);
    }
  }

  /** Every run still "running" (start-up: they belonged to the previous process). */
  async *runningRuns(): AsyncGenerator<{ autoReportId: string; run: RunRecord }> {
    for await (const e of this.kv.list<RunRecord>({ prefix: ["autoReports", "run"] })) {
      if (e.value.status === "running") {
        yield { autoReportId: e.key[2] as string, run: e.value };
      }
    }
  }
}
