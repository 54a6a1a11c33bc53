import { OwnedRecords } from "../../lib/kv/owned_records.ts";
import type { TaskState, WorkModeTask, WorkModeTemplate } from "./model.ts";

/**
 * Keys: template, ownerId, id; task, id; taskOwner, ownerId, createdAt, id (the account's
 * task list); taskCommand, commandId → task id (acknowledgements find their task);
 * taskDevice, imei → task id (a device runs one task at a time); active, id (tasks not ended,
 * for the clock).
 */
const K = {
  templatePrefix: ["workmodes", "template"],
  task: (id: string) => ["workmodes", "task", id],
  taskOwner: (ownerId: string, createdAt: number, id: string) => [
    "workmodes",
    "taskOwner",
    ownerId,
    createdAt,
    id,
  ],
  taskOwnerPrefix: (ownerId: string) => ["workmodes", "taskOwner", ownerId],
  taskCommand: (commandId: string) => ["workmodes", "taskCommand", commandId],
  taskDevice: (imei: string) => ["workmodes", "taskDevice", imei],
  active: (id: string) => ["workmodes", "active", id],
  activePrefix: ["workmodes", "active"],
};

export class WorkModeStore {
  private readonly owned: OwnedRecords<WorkModeTemplate>;

  constructor(private readonly kv: Deno.Kv) {
    this.owned = new OwnedRecords(kv, K.templatePrefix);
  }

  /** The owner's templates, newest first. */
  templates(ownerId: string): Promise<WorkModeTemplate[]> {
    return this.owned.list(ownerId, true);
  }

  template(ownerId: string, id: string): Promise<WorkModeTemplate | null> {
    return this.owned.get(ownerId, id);
  }

  saveTemplate(t: WorkModeTemplate): Promise<void> {
    return this.owned.save(t);
  }

  async removeTemplate(ownerId: string, id: string): Promise<void> {
    await this.owned.remove(ownerId, id);
  }

  async task(id: string): Promise<WorkModeTask | null> {
    return (await this.kv.get<WorkModeTask>(K.task(id))).value;
  }

  async taskForCommand(commandId: string): Promise<WorkModeTask | null> {
    const id = (await this.kv.get<string>(K.taskCommand(commandId))).value;
    return id ? await this.task(id) : null;
  }

  async taskForDevice(imei: string): Promise<WorkModeTask | null> {
    const id = (await this.kv.get<string>(K.taskDevice(imei))).value;
    return id ? await this.task(id) : null;
  }

  async saveTask(t: WorkModeTask): Promise<void> {
    const op = this.kv.atomic()
      .set(K.task(t.id), t)
      .set(K.taskOwner(t.ownerId, t.createdAt, t.id), null)
      .set(K.taskCommand(t.commandId), t.id);
    if (t.state === "ended") op.delete(K.active(t.id));
    else op.set(K.active(t.id), null).set(K.taskDevice(t.imei), t.id);
    await op.commit();
  }

  async *activeTasks(): AsyncGenerator<WorkModeTask> {
    for await (const e of this.kv.list({ prefix: K.activePrefix })) {
      const t = await this.task(String(e.key.at(-1)));
      if (t) yield t;
    }
  }

  async tasks(
    ownerId: string,
    f: { state?: TaskState; imei?: string; batchNo?: string },
  ): Promise<WorkModeTask[]> {
    const out: WorkModeTask[] = [];
    for await (const e of this.kv.list({ prefix: K.taskOwnerPrefix(ownerId) }, { reverse: true })) {
      const t = await this.task(String(e.key.at(-1)));
      if (!t) continue;
      if (f.state && t.state !== f.state) continue;
      if (f.imei && !t.imei.includes(f.imei)) continue;
      if (f.batchNo && t.batchNo !== f.batchNo) continue;
      out.push(t);
    }
    return out;
  }
}
