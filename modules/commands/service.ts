import { BizError } from "../../lib/errors.ts";
import type { Device } from "../devices/model.ts";
import { findModel } from "../devices/models.ts";
import type { ConnectionRegistry, LiveConnection } from "../gateway/connections.ts";
import type { CommandRecord, CommandStore } from "./store.ts";

/** A sent command without an answer after this becomes "timeout". */
export const COMMAND_TIMEOUT_MS = 60_000;

/**
 * The command transport: encode for the device's protocol, write to its live connection,
 * match its reply, and keep one offline command per device for its next connection.
 */
export class CommandService {
  /** ref → command id, for replies; refs are per process, unique for 2^31 sends. */
  private inFlight = new Map<string, Map<number, string>>();
  /** OsmAnd phones fetch commands in the answer to their next report. */
  private httpQueue = new Map<string, string>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly store: CommandStore,
    private readonly connections: ConnectionRegistry,
    private readonly timeoutMs = COMMAND_TIMEOUT_MS,
  ) {}

  async send(
    input: { device: Device; content: string; sendType: "online" | "offline"; replace: boolean },
    sender: { id: string; account: string },
  ): Promise<CommandRecord> {
    const { device, content, sendType } = input;
    if (!device.enabled) throw new BizError("deviceDisabled");
    const model = findModel(device.mcType);
    if (!model) throw new BizError("modelHasNoInstructions");
    const ref = await this.store.nextId();
    const record: CommandRecord = {
      id: String(ref),
      imei: device.imei,
      userId: device.userId,
      senderId: sender.id,
      senderAccount: sender.account,
      content,
      sendType,
      status: "toBeSent",
      ref: ref & 0x7fffffff,
      platform: "web",
      batchNo: null,
      createdAt: Date.now(),
      sentAt: null,
      repliedAt: null,
      reply: null,
    };
    if (model.protocol === "osmand") return this.queueForHttp(record, input.replace);
    const conn = this.connections.get(device.imei);
    if (sendType === "online") {
      if (!conn) throw new BizError("deviceOffline");
      await this.store.save(record);
      return await this.deliver(conn, record);
    }
    const saved = await this.store.savePending(record, input.replace);
    if (!saved.ok) throw new BizError("offlineCommandExists");
    return conn ? await this.deliver(conn, record) : record;
  }

  private async queueForHttp(record: CommandRecord, replace: boolean): Promise<CommandRecord> {
    const saved = await this.store.savePending(record, replace || record.sendType === "online");
    if (!saved.ok) throw new BizError("offlineCommandExists");
    this.httpQueue.set(record.imei, record.id);
    return record;
  }

  /** The text to put in an OsmAnd reply, marking that command as delivered. */
  async takeHttpCommand(imei: string): Promise<string | null> {
    const pending = await this.store.pendingFor(imei);
    if (!pending) return null;
    await this.store.clearPending(imei);
    this.httpQueue.delete(imei);
    // The phone app gives no answer: delivery in the HTTP reply is the last thing we can see.
    await this.store.save({
      ...pending,
      status: "succeeded",
      sentAt: Date.now(),
      repliedAt: Date.now(),
      reply: "delivered",
    });
    return pending.content;
  }

  /** Writes a command to the device and waits for its reply (or the timeout). */
  private async deliver(conn: LiveConnection, record: CommandRecord): Promise<CommandRecord> {
    let bytes: Uint8Array;
    try {
      bytes = conn.protocol.encodeCommand(
        { content: record.content, ref: record.ref },
        conn.session,
      );
    } catch {
      const failed = { ...record, status: "failed" as const, reply: "encode failed" };
      await this.store.save(failed);
      if (record.sendType === "offline") await this.store.clearPending(record.imei);
      throw new BizError("commandMalformed");
    }
    const sending: CommandRecord = { ...record, status: "sending", sentAt: Date.now() };
    await this.store.save(sending);
    if (record.sendType === "offline") await this.store.clearPending(record.imei);
    const refs = this.inFlight.get(record.imei) ?? new Map<number, string>();
    refs.set(record.ref, record.id);
    this.inFlight.set(record.imei, refs);
    this.timers.set(
      record.id,
      setTimeout(() => this.expire(record.imei, record.ref, record.id), this.timeoutMs),
    );
    try {
      await conn.write(bytes);
    } catch {
      await this.finish(record.imei, record.ref, "failed", "write failed");
    }
    return sending;
  }

  private async expire(imei: string, ref: number, id: string) {
    const c = await this.store.get(id);
    if (c?.status === "sending") await this.finish(imei, ref, "timeout", null);
  }

  /** Matches a reply to the command it answers: by ref, else the oldest one in flight. */
  async onReply(
    conn: LiveConnection,
    reply: { text: string; commandRef?: number; success?: boolean },
  ) {
    const refs = this.inFlight.get(conn.imei);
    if (!refs?.size) return;
    const ref = reply.commandRef !== undefined && refs.has(reply.commandRef)
      ? reply.commandRef
      : refs.keys().next().value!;
    await this.finish(conn.imei, ref, reply.success === false ? "failed" : "succeeded", reply.text);
  }

  private async finish(
    imei: string,
    ref: number,
    status: "succeeded" | "failed" | "timeout",
    text: string | null,
  ) {
    const refs = this.inFlight.get(imei);
    const id = refs?.get(ref);
    if (!id) return;
    refs!.delete(ref);
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    const c = await this.store.get(id);
    if (c) await this.store.save({ ...c, status, repliedAt: Date.now(), reply: text });
  }

  /** On (re)connection: deliver the device's pending offline command. */
  async onConnected(conn: LiveConnection): Promise<void> {
    const pending = await this.store.pendingFor(conn.imei);
    if (pending) await this.deliver(conn, pending).catch(() => {});
  }

  async cancel(imei: string): Promise<CommandRecord | null> {
    const pending = await this.store.pendingFor(imei);
    if (!pending) return null;
    const cancelled = { ...pending, status: "cancelled" as const };
    await this.store.save(cancelled);
    await this.store.clearPending(imei);
    this.httpQueue.delete(imei);
    return cancelled;
  }

  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
