import type { Device } from "../devices/model.ts";
import { buildInstruction, type InstructionCode } from "./catalogue/index.ts";
import { BizError } from "../../lib/errors.ts";
import type { CommandService, Sender } from "./service.ts";
import type { BatchRecord, CommandRecord, CommandStore } from "./store.ts";

/** Devices handled at once: enough to fill the link, few enough to keep KV commits short. */
const CONCURRENCY = 64;

/** Batch numbers read as their time: B + yyyyMMddHHmmss + the first command id. */
export function batchNumber(now: Date, firstId: number): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `B${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}${
    p(now.getUTCHours())
  }${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}${p(firstId % 10000, 4)}`;
}

export async function runPool<T>(
  items: T[],
  limit: number,
  fn: (t: T, i: number) => Promise<void>,
) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export interface BatchItem {
  device: Device;
  /** How this device's model encodes it, or why it cannot (stored as a failed row). */
  build: () => Pick<CommandRecord, "name" | "content" | "native">;
}

/**
 * Sends one command to many devices: every device gets a command record carrying the
 * batch number (refused devices a "failed" one with the reason), delivered concurrently.
 */
export class BatchSender {
  constructor(private readonly store: CommandStore, private readonly commands: CommandService) {}

  async send(
    input: {
      category: BatchRecord["category"];
      name: string;
      content: string;
      items: BatchItem[];
      sendType: "online" | "offline";
      replace: boolean;
    },
    sender: Required<Sender>,
  ): Promise<{ batch: BatchRecord; records: CommandRecord[] }> {
    if (!input.items.length) throw new BizError("noDevicesChosen");
    const first = await this.store.nextIds(input.items.length);
    const batch: BatchRecord = {
      batchNo: batchNumber(new Date(), first),
      category: input.category,
      name: input.name,
      content: input.content,
      deviceCount: input.items.length,
      senderId: sender.id,
      senderAccount: sender.account,
      ownerId: sender.ownerId,
      sendType: input.sendType,
      createdAt: Date.now(),
    };
    await this.store.saveBatch(batch);
    const records: CommandRecord[] = new Array(input.items.length);
    await runPool(input.items, CONCURRENCY, async ({ device, build }, i) => {
      const base = {
        device,
        sendType: input.sendType,
        replace: input.replace,
        batchNo: batch.batchNo,
        id: first + i,
      };
      let built: ReturnType<BatchItem["build"]>;
      try {
        built = build();
      } catch (e) {
        if (!(e instanceof BizError)) throw e;
        records[i] = await this.commands.recordRefusal(
          { ...base, name: input.name as InstructionCode, content: input.content },
          sender,
          e,
        );
        return;
      }
      records[i] = await this.commands.sendOrRecord({ ...base, ...built }, sender);
    });
    return { batch, records };
  }
}

/** Batch items for a catalogue instruction: each device encodes it for its own model. */
export function instructionItems(
  devices: Device[],
  code: InstructionCode,
  params: Record<string, unknown>,
): BatchItem[] {
  return devices.map((device) => ({
    device,
    build: () => {
      const built = buildInstruction(device.mcType, code, params);
      return {
        name: code,
        content: built.content,
        native: built.encoding.kind === "text" ? null : built.encoding,
      };
    },
  }));
}

/** What a batch call answers: its number, size, how many devices failed at once, refusals. */
export function batchSummary(
  batch: BatchRecord,
  records: CommandRecord[],
  rejected: { imei: string; reason: string }[],
) {
  return {
    batchNo: batch.batchNo,
    deviceCount: batch.deviceCount,
    failed: records.filter((r) => r.status === "failed").length,
    rejected,
  };
}
