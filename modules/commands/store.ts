import { nextSequence } from "../../lib/kv/open.ts";
import { OwnedRecords } from "../../lib/kv/owned_records.ts";
import { COMMAND_STATUSES, type CommandStatus } from "./statuses.ts";
import type { BatchRecord, CommandRecord, CommandTemplate, OperationLogEntry } from "./types.ts";

export { COMMAND_STATUSES };
export type {
  BatchRecord,
  CommandPhase,
  CommandRecord,
  CommandTemplate,
  OperationLogEntry,
} from "./types.ts";
export type { CommandStatus };

/**
 * Keys: id → record; device, createdAt, id (history per device); owner, createdAt, id
 * (the command log of an account); batch, batchNo, id (per-device results of a batch);
 * pending, imei → id (the one offline command waiting for a device); batches and oplog per
 * owner.
 */
const K = {
  id: (id: string) => ["commands", "id", id],
  device: (imei: string, createdAt: number, id: string) => [
    "commands",
    "device",
    imei,
    createdAt,
    id,
  ],
  devicePrefix: (imei: string) => ["commands", "device", imei],
  owner: (ownerId: string, createdAt: number, id: string) => [
    "commands",
    "owner",
    ownerId,
    createdAt,
    id,
  ],
  ownerPrefix: (ownerId: string) => ["commands", "owner", ownerId],
  batchItem: (batchNo: string, id: string) => ["commands", "batchItem", batchNo, id],
  batchItems: (batchNo: string) => ["commands", "batchItem", batchNo],
  batch: (batchNo: string) => ["commands", "batch", batchNo],
  ownerBatch: (ownerId: string, createdAt: number, batchNo: string) => [
    "commands",
    "ownerBatch",
    ownerId,
    createdAt,
    batchNo,
  ],
  ownerBatchPrefix: (ownerId: string) => ["commands", "ownerBatch", ownerId],
  oplog: (ownerId: string, at: number, id: string) => ["commands", "oplog", ownerId, at, id],
  oplogPrefix: (ownerId: string) => ["commands", "oplog", ownerId],
  pending: (imei: string) => ["commands", "pending", imei],
  /** Commands written to a device and not yet answered (survives a restart). */
  sending: (id: string) => ["commands", "sending", id],
  sendingPrefix: ["commands", "sending"],
  seq: ["commands", "seq"],
};

function indexed(op: Deno.AtomicOperation, c: CommandRecord): Deno.AtomicOperation {
  op.set(K.id(c.id), c).set(K.device(c.imei, c.createdAt, c.id), null);
  if (c.ownerId) op.set(K.owner(c.ownerId, c.createdAt, c.id), null);
  if (c.batchNo) op.set(K.batchItem(c.batchNo, c.id), null);
  if (c.status === "sending") op.set(K.sending(c.id), null);
  else op.delete(K.sending(c.id));
  return op;
}

async function page<T>(
  ids: string[],
  pageNum: number,
  pageSize: number,
  load: (id: string) => Promise<T | null>,
): Promise<{ total: number; list: T[] }> {
  const slice = ids.slice((pageNum - 1) * pageSize, pageNum * pageSize);
  const list = (await Promise.all(slice.map(load))).filter((x): x is Awaited<T> => x !== null);
  return { total: ids.length, list };
}

/** Deno KV reads at most 10 keys per getMany. */
const GET_MANY = 10;

export class CommandStore {
  constructor(private readonly kv: Deno.Kv) {}

  async nextId(): Promise<number> {
    return await nextSequence(this.kv, K.seq);
  }

  /** Reserves `count` consecutive ids at once (a batch would otherwise contend on the sequence). */
  async nextIds(count: number): Promise<number> {
    for (;;) {
      const current = await this.kv.get<number>(K.seq);
      const first = (current.value ?? 0) + 1;
      const res = await this.kv.atomic().check(current).set(K.seq, first + count - 1).commit();
      if (res.ok) return first;
    }
  }

  async get(id: string): Promise<CommandRecord | null> {
    return (await this.kv.get<CommandRecord>(K.id(id))).value;
  }

  async save(c: CommandRecord): Promise<void> {
    await indexed(this.kv.atomic(), c).commit();
  }

  /** Saves an offline command as the device's pending one; false if another is pending and `replace` is off. */
  async savePending(
    c: CommandRecord,
    replace: boolean,
  ): Promise<{ ok: boolean; replaced: CommandRecord | null }> {
    const pending = await this.kv.get<string>(K.pending(c.imei));
    const old = pending.value ? await this.get(pending.value) : null;
    const live = old && old.status === "toBeSent" ? old : null;
    if (live && !replace) return { ok: false, replaced: null };
    const op = indexed(this.kv.atomic().check(pending), c).set(K.pending(c.imei), c.id);
    if (live) {
      op.set(
        K.id(live.id),
        {
          ...live,
          status: "cancelled",
          phases: [...(live.phases ?? []), { status: "cancelled", at: Date.now() }],
        } satisfies CommandRecord,
      );
    }
    const res = await op.commit();
    return { ok: res.ok, replaced: res.ok ? live : null };
  }

  async pendingFor(imei: string): Promise<CommandRecord | null> {
    const id = (await this.kv.get<string>(K.pending(imei))).value;
    const c = id ? await this.get(id) : null;
    return c && c.status === "toBeSent" ? c : null;
  }

  async clearPending(imei: string): Promise<void> {
    await this.kv.delete(K.pending(imei));
  }

  /** A device's commands, newest first, paged. */
  async listForDevice(
    imei: string,
    pageNum: number,
    pageSize: number,
  ): Promise<{ total: number; list: CommandRecord[] }> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.devicePrefix(imei) }, { reverse: true })) {
      ids.push(String(e.key.at(-1)));
    }
    return await page(ids, pageNum, pageSize, (id) => this.get(id));
  }

  /** An account's commands between two times, newest first (the status page filters them). */
  async *forOwner(ownerId: string, from: number, to: number): AsyncGenerator<CommandRecord> {
    const it = this.kv.list<null>({
      start: K.owner(ownerId, from, ""),
      end: K.owner(ownerId, to + 1, ""),
    }, { reverse: true, batchSize: 500 });
    const ids: string[] = [];
    for await (const e of it) ids.push(String(e.key.at(-1)));
    for (let i = 0; i < ids.length; i += GET_MANY) {
      const chunk = await this.kv.getMany<CommandRecord[]>(ids.slice(i, i + GET_MANY).map(K.id));
      for (const e of chunk) if (e.value) yield e.value;
    }
  }

  /** Ids of commands still marked "sending". */
  async sendingIds(): Promise<string[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.sendingPrefix })) ids.push(String(e.key.at(-1)));
    return ids;
  }

  async batchCommands(batchNo: string): Promise<CommandRecord[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.batchItems(batchNo) })) {
      ids.push(String(e.key.at(-1)));
    }
    const out: CommandRecord[] = [];
    for (let i = 0; i < ids.length; i += GET_MANY) {
      const chunk = await this.kv.getMany<CommandRecord[]>(ids.slice(i, i + GET_MANY).map(K.id));
      for (const e of chunk) if (e.value) out.push(e.value);
    }
    return out;
  }

  async saveBatch(b: BatchRecord): Promise<void> {
    await this.kv.atomic().set(K.batch(b.batchNo), b)
      .set(K.ownerBatch(b.ownerId, b.createdAt, b.batchNo), null).commit();
  }

  async getBatch(batchNo: string): Promise<BatchRecord | null> {
    return (await this.kv.get<BatchRecord>(K.batch(batchNo))).value;
  }

  async listBatches(
    ownerId: string,
    category: BatchRecord["category"],
    pageNum: number,
    pageSize: number,
  ): Promise<{ total: number; list: BatchRecord[] }> {
    const all: BatchRecord[] = [];
    for await (
      const e of this.kv.list({ prefix: K.ownerBatchPrefix(ownerId) }, { reverse: true })
    ) {
      const b = await this.getBatch(String(e.key.at(-1)));
      if (b && b.category === category) all.push(b);
    }
    return { total: all.length, list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize) };
  }

  async log(ownerId: string, entry: Omit<OperationLogEntry, "id">): Promise<void> {
    const id = crypto.randomUUID();
    await this.kv.set(K.oplog(ownerId, entry.at, id), { ...entry, id });
  }

  async listLog(
    ownerId: string,
    pageNum: number,
    pageSize: number,
  ): Promise<{ total: number; list: OperationLogEntry[] }> {
    const all: OperationLogEntry[] = [];
    for await (
      const e of this.kv.list<OperationLogEntry>({ prefix: K.oplogPrefix(ownerId) }, {
        reverse: true,
      })
    ) {
      all.push(e.value);
    }
    return { total: all.length, list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize) };
  }
}

/** Keys: template, ownerId, id. */
export class TemplateStore extends OwnedRecords<CommandTemplate> {
  constructor(kv: Deno.Kv) {
    super(kv, ["commands", "template"]);
  }
}
