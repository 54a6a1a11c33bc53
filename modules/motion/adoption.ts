/**
 * Cluster mode (issue 23): the leader adopts devices that no live instance analyses, so their
 * gap is closed once, at their real last point. That is a device whose instance crashed and
 * that never reconnected, or whose connection closed cleanly (its holder wrote its checkpoint
 * then) and that stayed silent past the gap. Only instances analysing a device tick it.
 *
 * About once a minute the leader walks the directory's synced fix times against its memory. A
 * device is settled (skipped, no read) when its memory is up to date and its gap closed, or when
 * it was found so at the same fix time before. The others silent past their gap are looked up
 * in one batch of session reads; those without a live holder are adopted: their checkpoint read
 * again and the positions stored after it replayed (MotionEngine.adopt); the next flush ticks
 * them. Adopted devices are let go once their gap is closed and written, or when a live
 * instance holds them again.
 */
import { log } from "../../lib/log.ts";
import type { Leadership } from "../../lib/cluster/types.ts";
import { CHECKPOINT_MS, type MotionDevices, type MotionEngine } from "./engine.ts";
import type { MotionHolders } from "./relay.ts";

const adoptionLog = log.area("motion");

/** How often the leader looks for devices nobody analyses. */
export const ADOPTION_PASS_MS = 60_000;
/** A live holder has written a gap-closed checkpoint this long after the gap (it ticks every
 * flush, and checkpoints within CHECKPOINT_MS). */
const HOLDER_SETTLES_MS = 2 * CHECKPOINT_MS;
/** Adoptions (checkpoint read and replay) under way at once. */
const ADOPT_AT_ONCE = 20;

export class Adoption {
  /** Devices found settled (adopted here, or closed by a live holder) at this fix time. */
  private readonly settledAt = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private unlisten: (() => void) | null = null;
  private running: Promise<unknown> = Promise.resolve();
  /** Counted for the tests: devices looked up, adopted. */
  readonly stats = { passes: 0, lookedUp: 0, adopted: 0 };

  constructor(
    private readonly engine: MotionEngine,
    private readonly known: MotionDevices,
    private readonly holders: Pick<MotionHolders, "instanceId" | "liveHolders">,
    private readonly leader: Leadership,
    private readonly everyMs = ADOPTION_PASS_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.pass().catch((e) => adoptionLog.error("motion adoption failed", e));
    }, this.everyMs);
    Deno.unrefTimer(this.timer);
    // A former leader stops ticking what it adopted: the new one takes over.
    this.unlisten = this.leader.onChange((leading) => {
      if (!leading) this.letAllGo();
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
    this.unlisten = null;
    await this.running;
  }

  /** One pass (on the leader only); returns the devices it adopted. */
  async pass(now = Date.now()): Promise<string[]> {
    if (!this.leader.isLeader()) {
      this.letAllGo();
      return [];
    }
    this.stats.passes++;
    const candidates = this.candidates(now);
    const adopted = this.engine.adoptedDevices();
    const lookUp = [...candidates.map((c) => c.imei), ...adopted];
    if (!lookUp.length) return [];
    this.stats.lookedUp += lookUp.length;
    const holders = await this.holders.liveHolders(lookUp);
    const here = this.holders.instanceId;
    for (const imei of adopted) {
      const holder = holders.get(imei);
      if ((holder && holder !== here) || this.engine.adoptionDone(imei)) this.engine.unadopt(imei);
    }
    const orphans: typeof candidates = [];
    for (const c of candidates) {
      if (!holders.has(c.imei)) orphans.push(c);
      else if (now - c.last > this.engine.gapMsOf(c.userId) + HOLDER_SETTLES_MS) {
        // Analysed by a live instance, which has closed (and checkpointed) the gap by now.
        this.settledAt.set(c.imei, c.last);
      }
    }
    const taken: string[] = [];
    // A few at a time: each is a checkpoint read and a range read of positions.
    for (let i = 0; i < orphans.length; i += ADOPT_AT_ONCE) {
      await Promise.all(
        orphans.slice(i, i + ADOPT_AT_ONCE).map(async ({ imei, userId, last }) => {
          await this.engine.adopt(imei, userId);
          this.settledAt.set(imei, last);
          this.stats.adopted++;
          taken.push(imei);
        }),
      );
    }
    if (taken.length) adoptionLog.info(`adopted ${taken.length} device(s) no live instance holds`);
    return taken;
  }

  /**
   * Devices not analysed here whose gap may still be open somewhere: silent past their gap,
   * and this instance's memory either behind the directory's newest fix or not gap-closed.
   */
  private candidates(now: number): { imei: string; userId: string; last: number }[] {
    const out: { imei: string; userId: string; last: number }[] = [];
    for (const { imei, userId, gpsTime } of this.known.fixTimes()) {
      if (this.engine.holds(imei)) continue;
      const dm = this.engine.has(imei);
      const last = Math.max(gpsTime ?? -Infinity, dm?.lastTime ?? -Infinity);
      if (!Number.isFinite(last)) continue;
      if (dm && dm.lastTime >= last && !dm.analyzer.waitingForGap) continue;
      if (this.settledAt.get(imei) === last) continue;
      if (now - last <= this.engine.gapMsOf(userId)) continue;
      out.push({ imei, userId, last });
    }
    return out;
  }

  private letAllGo(): void {
    for (const imei of this.engine.adoptedDevices()) this.engine.unadopt(imei);
  }
}
