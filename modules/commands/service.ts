import { BizError, type ErrorName } from "../../lib/errors.ts";
import type { Device } from "../devices/model.ts";
import { findModel } from "../devices/models.ts";
import type { CommandDesk, Connections, LiveConnection } from "../gateway/types.ts";
import { CommandEncodeError } from "../gateway/protocols/types.ts";
import type { CommandRecord, CommandStatus, CommandStore } from "./store.ts";
import { NO_EVENTS, type Publisher } from "../../lib/events/bus.ts";
import type { CommandSettled } from "./events.ts";
import { type CommandRoute, deliverThere, serveRoute } from "./routing.ts";

/** A sent command without an answer after this becomes "timeout". */
export const COMMAND_TIMEOUT_MS = 60_000;

export interface Sender {
  id: string;
  account: string;
  /** The account whose command log gets the command (a virtual user's master). */
  ownerId?: string;
}

export interface SendInput {
  device: Device;
  content: string;
  sendType: "online" | "offline";
  /** Confirms replacing the device's pending offline command. */
  replace: boolean;
  name?: CommandRecord["name"];
  native?: CommandRecord["native"];
  batchNo?: string | null;
  platform?: CommandRecord["platform"];
  /** A pre-reserved id (batches reserve a block); otherwise one is drawn. */
  id?: number;
}

/** Moves a command to a new status, keeping the trail of phases. */
export function advance(
  c: CommandRecord,
  status: CommandStatus,
  extra: Partial<CommandRecord> = {},
): CommandRecord {
  const at = Date.now();
  return { ...c, ...extra, status, phases: [...(c.phases ?? []), { status, at }] };
}

/**
 * The in-flight ref a reply answers. JT/T 808 echoes only a WORD serial (the ref's low 16 bits),
 * so once command ids pass 65,535 its replies match on those bits. Without a ref, or with one
 * no command in flight has, the oldest command in flight is taken (devices that answer in
 * order, GT06 units that answer an SMS-style flag) — except on JT/T 808, whose terminals
 * always echo the serial: there such a reply (e.g. a 0x0201 after its query timed out)
 * answers nothing in flight and settles nothing (undefined).
 */
function matchRef(
  refs: Map<number, string>,
  commandRef: number | undefined,
  echoesSerial: boolean,
): number | undefined {
  if (commandRef !== undefined) {
    if (refs.has(commandRef)) return commandRef;
    if (commandRef <= 0xffff) {
      for (const ref of refs.keys()) if ((ref & 0xffff) === commandRef) return ref;
    }
    if (echoesSerial) return undefined;
  }
  return refs.keys().next().value!;
}

/**
 * The command transport: encode for the device's protocol, write to its live connection,
 * match its reply, and keep one offline command per device for its next connection.
 */
export class CommandService implements CommandDesk {
  /** ref → command id, for replies; refs are per process, unique for 2^31 sends. */
  private inFlight = new Map<string, Map<number, string>>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private unserve: (() => void) | null = null;
  constructor(
    private readonly store: CommandStore,
    private readonly connections: Connections,
    private readonly timeoutMs = COMMAND_TIMEOUT_MS,
    /** Told about every command that reached a final or waiting state (work-mode tasks). */
    private readonly events: Publisher<CommandSettled> = NO_EVENTS,
    /** Cluster mode: devices connected to other instances are reached through them. */
    private readonly route: CommandRoute | null = null,
  ) {
    if (route) this.unserve = serveRoute(route, (record) => this.deliverHere(record));
  }

  /** A new record in "to be sent". */
  private async draft(input: SendInput, sender: Sender): Promise<CommandRecord> {
    const { device } = input;
    const ref = input.id ?? await this.store.nextId();
    return advance({
      id: String(ref),
      imei: device.imei,
      userId: device.userId,
      senderId: sender.id,
      senderAccount: sender.account,
      ownerId: sender.ownerId ?? sender.id,
      name: input.name ?? null,
      content: input.content,
      native: input.native ?? null,
      sendType: input.sendType,
      status: "toBeSent",
      ref: ref & 0x7fffffff,
      platform: input.platform ?? "web",
      batchNo: input.batchNo ?? null,
      createdAt: Date.now(),
      sentAt: null,
      repliedAt: null,
      reply: null,
    }, "toBeSent");
  }

  async send(input: SendInput, sender: Sender): Promise<CommandRecord> {
    if (!input.device.enabled) throw new BizError("deviceDisabled");
    const model = findModel(input.device.mcType);
    if (!model) throw new BizError("modelHasNoInstructions");
    const record = await this.draft(input, sender);
    if (model.protocol === "osmand") {
      return this.queueForHttp(record, input.replace);
    }
    const conn = this.connections.get(record.imei);
    const holder = conn || !this.route
      ? null
      : await this.route.sessions.holderElsewhere(record.imei);
    if (input.sendType === "online") {
      if (holder) return await this.viaHolder(holder, record);
      if (!conn) throw new BizError("deviceOffline");
      // deliver() stores it (with its "to be sent" phase) as "sending": one write, not two.
      return await this.deliver(conn, record);
    }
    const saved = await this.store.savePending(record, input.replace);
    if (!saved.ok) throw new BizError("offlineCommandExists");
    if (holder) return await this.viaHolder(holder, record);
    return conn ? await this.deliver(conn, record) : record;
  }

  /**
   * Cluster mode: the instance holding the device writes the command and matches its reply.
   * An offline command it could not take stays pending (it goes out at the next login).
   */
  private async viaHolder(holder: string, record: CommandRecord): Promise<CommandRecord> {
    const answer = await deliverThere(this.route!, holder, record);
    const offline = record.sendType === "offline";
    if (!answer) {
      if (offline) return record;
      throw new BizError("deviceOffline");
    }
    if ("record" in answer) return answer.record;
    if (offline && answer.error === "deviceOffline") return record;
    throw new BizError(answer.error);
  }

  /** Another instance's command for a device connected here. */
  private async deliverHere(record: CommandRecord): Promise<CommandRecord> {
    const conn = this.connections.get(record.imei);
    if (!conn) throw new BizError("deviceOffline");
    if (record.sendType === "offline") {
      // Delivered at a login meanwhile, or replaced: not sent twice.
      const pending = await this.store.pendingFor(record.imei);
      if (pending?.id !== record.id) return (await this.store.get(record.id)) ?? record;
    }
    return await this.deliver(conn, record);
  }

  /**
   * Like send, but a refusal becomes a stored "failed" record with the reason as its reply,
   * so every device of a batch has a row on the status page.
   */
  async sendOrRecord(input: SendInput, sender: Sender): Promise<CommandRecord> {
    try {
      return await this.send(input, sender);
    } catch (e) {
      if (!(e instanceof BizError)) throw e;
      return await this.recordRefusal(input, sender, e);
    }
  }

  /** Stores a command that was refused before sending, with the reason as its reply. */
  async recordRefusal(input: SendInput, sender: Sender, e: BizError): Promise<CommandRecord> {
    const reason: ErrorName = e.key;
    const failed = advance(await this.draft(input, sender), "failed", { reply: reason });
    await this.store.save(failed);
    return failed;
  }

  private async queueForHttp(record: CommandRecord, replace: boolean): Promise<CommandRecord> {
    const saved = await this.store.savePending(record, replace || record.sendType === "online");
    if (!saved.ok) throw new BizError("offlineCommandExists");
    return record;
  }

  /** The text to put in an OsmAnd reply, marking that command as delivered. */
  async takeHttpCommand(imei: string): Promise<string | null> {
    const pending = await this.store.pendingFor(imei);
    if (!pending) return null;
    await this.store.clearPending(imei);
    // The phone app gives no answer: delivery in the HTTP reply is the last thing we can see.
    const now = Date.now();
    await this.store.save(
      advance(advance(pending, "sending", { sentAt: now }), "succeeded", {
        repliedAt: now,
        reply: "delivered",
      }),
    );
    return pending.content;
  }

  /** Writes a command to the device and waits for its reply (or the timeout). */
  private async deliver(conn: LiveConnection, record: CommandRecord): Promise<CommandRecord> {
    const sending = advance(record, "sending", {
      sentAt: Date.now(),
      ...(this.route ? { sentBy: this.route.instanceId } : {}),
    });
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
      await conn.send({ ref: record.ref, content: record.content, native: record.native });
    } catch (e) {
      if (e instanceof CommandEncodeError) {
        await this.finish(record.imei, record.ref, "failed", "encode failed");
        throw new BizError("commandMalformed");
      }
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
    const ref = matchRef(refs, reply.commandRef, conn.protocol === "jt808");
    if (ref === undefined) return;
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
    if (!refs!.size) this.inFlight.delete(imei);
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    const c = await this.store.get(id);
    if (!c) return;
    const done = advance(c, status, { repliedAt: Date.now(), reply: text });
    await this.store.save(done);
    await this.notify(done);
  }

  async record(id: string): Promise<CommandRecord | null> {
    return await this.store.get(id);
  }

  /** Records a later state the caller learnt (work modes: waiting for execution, executed). */
  async mark(id: string, status: "waitingExecution" | "executed"): Promise<CommandRecord | null> {
    const c = await this.store.get(id);
    if (!c || c.status === status) return c;
    const next = advance(c, status);
    await this.store.save(next);
    return next;
  }

  private async notify(c: CommandRecord) {
    await this.events.deliver({ type: "commandSettled", command: c });
  }

  /**
   * Commands left "sending" by an earlier process, or by an instance that is gone (its timers
   * and reply matching are gone with it), become "timeout" once their time is up. Run by the
   * scheduled jobs.
   */
  async sweep(now = Date.now()): Promise<number> {
    let n = 0;
    for (const id of await this.store.sendingIds()) {
      if (this.timers.has(id)) continue;
      const c = await this.store.get(id);
      if (!c || c.status !== "sending" || (c.sentAt ?? 0) > now - this.timeoutMs) continue;
      // Cluster mode: a live instance that sent it times it out itself (or records the reply).
      const sentElsewhere = c.sentBy && c.sentBy !== this.route?.instanceId;
      if (sentElsewhere && this.route?.sessions.instanceLive(c.sentBy!)) continue;
      const done = advance(c, "timeout", { repliedAt: now });
      await this.store.save(done);
      await this.notify(done);
      n++;
    }
    return n;
  }

  /** On (re)connection: deliver the device's pending offline command. */
  async onConnected(conn: LiveConnection): Promise<void> {
    const pending = await this.store.pendingFor(conn.imei);
    if (pending) await this.deliver(conn, pending).catch(() => {});
  }

  async cancel(imei: string): Promise<CommandRecord | null> {
    const pending = await this.store.pendingFor(imei);
    if (!pending) return null;
    const cancelled = advance(pending, "cancelled");
    await this.store.save(cancelled);
    await this.store.clearPending(imei);
    await this.notify(cancelled);
    return cancelled;
  }

  /** Cancels every pending offline command in an account's command log. */
  async cancelAll(ownerId: string): Promise<CommandRecord[]> {
    const out: CommandRecord[] = [];
    for await (const c of this.store.forOwner(ownerId, 0, Date.now())) {
      if (c.status !== "toBeSent") continue;
      const done = await this.cancel(c.imei);
      if (done) out.push(done);
    }
    return out;
  }

  stop(): void {
    this.unserve?.();
    this.unserve = null;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
