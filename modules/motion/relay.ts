/**
 * Cluster mode (issue 23): a device's live motion analysis is read where it runs. Each
 * instance's memory holds every device it ever saw, but only the instance analysing a device
 * (holding its connection, or the leader that adopted it, ./adoption.ts) has it up to date;
 * the console is round-robin across instances. So a report read here of a device analysed
 * elsewhere asks that instance (`tp.motion.<instanceId>`, short timeout) for its open segments,
 * unflushed ones and running days; with no live holder (or no answer) they are computed from
 * the device's checkpoint and the positions stored after it, never from stale memory.
 *
 * The leader's offline sweep covers every device: an offline status of a device analysed
 * elsewhere is handed to its holder, or, with none, the leader adopts the device first.
 * Single mode has no relay.
 */
import { log } from "../../lib/log.ts";
import { type ClusterLink, type Leadership, SUBJECTS } from "../../lib/cluster/types.ts";
import {
  answerAsHolder,
  askHolder,
  type DeviceHolders,
  type HolderAnswer,
} from "../../lib/cluster/holder_request.ts";
import type { DeviceStatusChanged } from "../gateway/events.ts";
import type { MotionEngine, MotionView } from "./engine.ts";

const relayLog = log.area("motion");

/** Which instance holds a device's connection (modules/gateway SessionRegistry). */
export interface MotionHolders extends DeviceHolders {
  /** The live holder of each device that has one (this instance included), in one read. */
  liveHolders(imeis: readonly string[]): Promise<Map<string, string>>;
}

/** How long a report waits for the holder's answer before computing from the checkpoint. */
export const VIEW_TIMEOUT_MS = 1000;

type Request =
  | { op: "view"; imei: string; now: number }
  | { op: "status"; event: DeviceStatusChanged };

/** `held` false: the asked instance does not analyse the device (any more). */
interface Answer {
  held: boolean;
  view?: MotionView;
}

export class MotionRelay {
  private unreply: (() => void) | null = null;
  /** Counted for the tests and GET /metrics: views asked elsewhere, computed from checkpoints. */
  readonly stats = { asked: 0, fromCheckpoint: 0 };

  constructor(
    private readonly engine: MotionEngine,
    private readonly link: ClusterLink,
    private readonly holders: MotionHolders,
    private readonly leader: Pick<Leadership, "isLeader">,
    private readonly timeoutMs = VIEW_TIMEOUT_MS,
  ) {}

  start(): void {
    if (this.unreply) return;
    this.unreply = answerAsHolder<Request, Answer>(
      this.link,
      SUBJECTS.motion,
      this.holders.instanceId,
      (request) => this.answer(request),
    );
    this.engine.unheldStatus = (e) => {
      this.statusElsewhere(e).catch((err) => relayLog.error("motion status not handed on", err));
    };
  }

  stop(): void {
    this.unreply?.();
    this.unreply = null;
    this.engine.unheldStatus = null;
  }

  /** What the analysis of the device holds beyond the store, from where it is analysed. */
  async view(imei: string, now: number): Promise<MotionView> {
    if (this.engine.holds(imei)) return this.engine.view(imei, now);
    const { answer } = await this.ask(imei, { op: "view", imei, now });
    if (answer?.held && answer.view) return answer.view;
    this.stats.fromCheckpoint++;
    return await this.engine.checkpointView(imei, now);
  }

  /** Asks the device's live holder elsewhere (lib/cluster/holder_request.ts). */
  private async ask(imei: string, request: Request): Promise<HolderAnswer<Answer>> {
    const asked = await askHolder<Answer>(
      this.link,
      this.holders,
      SUBJECTS.motion,
      imei,
      request,
      this.timeoutMs,
    );
    if (asked.holder) this.stats.asked++;
    return asked;
  }

  private async answer(request: Request): Promise<Answer> {
    if (request.op === "status") {
      if (!this.engine.holds(request.event.imei)) return { held: false };
      this.engine.onStatus(request.event);
      return { held: true };
    }
    const { imei, now } = request;
    if (!this.engine.holds(imei)) return { held: false };
    // Taken over just now: its checkpoint is being read again and replayed.
    if (this.engine.has(imei)?.buffer) await this.engine.settled();
    return { held: true, view: this.engine.view(imei, now) };
  }

  /** A status change of a device analysed elsewhere: its holder applies it, else the leader
   * adopts the device (the sweep runs there) and applies it to the reloaded analysis. */
  private async statusElsewhere(e: DeviceStatusChanged): Promise<void> {
    const { holder, answer } = await this.ask(e.imei, { op: "status", event: e });
    if (answer?.held) return;
    // A live holder that did not answer (or not as holding it) keeps the device: it is never
    // analysed in two places.
    if (holder || !this.leader.isLeader()) return;
    await this.engine.adopt(e.imei, e.userId);
    this.engine.onStatus(e);
  }
}
