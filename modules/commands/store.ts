import { nextSequence } from "../../lib/kv/open.ts";

/** Spec §4 command states. */
export type CommandStatus =
  | "toBeSent"
  | "sending"
  | "succeeded"
  | "failed"
  | "cancelled"
  | "executed"
  | "waitingExecution"
  | "timeout";

export interface CommandRecord {
  id: string;
  imei: string;
  /** Owner account of the device (for subtree checks). */
  userId: string;
  senderId: string;
  senderAccount: string;
  content: string;
  sendType: "online" | "offline";
  status: CommandStatus;
  /** Reference the device echoes back (GT06 server flag, JT/T 808 serial, H02 time). */
  ref: number;
  platform: "web" | "api";
  batchNo: string | null;
  createdAt: number;
  sentAt: number | null;
  repliedAt: number | null;
  reply: string | null;
}

/**
 * Keys: id → record; device, createdAt, id (history per device, newest last);
 * pending, imei → id (the one offline command waiting for a device).
 */
const K = {
  id: (id: string) => ["commands", "id", id],
  device: (
    imei: string,
    createdAt: number,
    id: string,
  ) => ["commands", "device", imei, createdAt, id],
  devicePrefix: (imei: string) => ["commands", "device", imei],
  pending: (imei: string) => ["commands", "pending", imei],
  seq: ["commands", "seq"],
};

export class CommandStore {
  constructor(private readonly kv: Deno.Kv) {}

  async nextId(): Promise<number> {
    return await nextSequence(this.kv, K.seq);
  }

  async get(id: string): Promise<CommandRecord | null> {
    return (await this.kv.get<CommandRecord>(K.id(id))).value;
  }

  async save(c: CommandRecord): Promise<void> {
    await this.kv.atomic().set(K.id(c.id), c).set(K.device(c.imei, c.createdAt, c.id), null)
      .commit();
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
    const op = this.kv.atomic().check(pending)
      .set(K.id(c.id), c)
      .set(K.device(c.imei, c.createdAt, c.id), null)
      .set(K.pending(c.imei), c.id);
    if (live) op.set(K.id(live.id), { ...live, status: "cancelled" satisfies CommandStatus });
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
    const slice = ids.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    const list: CommandRecord[] = [];
    for (const id of slice) {
      const c = await this.get(id);
      if (c) list.push(c);
    }
    return { total: ids.length, list };
  }
}
