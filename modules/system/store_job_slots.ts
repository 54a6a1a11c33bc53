/**
 * Cron slots claimed once (issue 23). Every instance runs the same Deno.cron schedule; a run
 * goes ahead only when its slot (job name + scheduled minute) was free and this instance took
 * it in one atomic check-and-set, so a job due while several instances run executes once.
 * Claims expire after two days (a slot is never due again after its minute).
 */
const K = {
  slot: (job: string, minute: number) => ["jobs", "slot", job, minute],
};

const CLAIM_KEEP_MS = 2 * 86_400_000;

export interface SlotClaim {
  instanceId: string;
  at: number;
}

export class JobSlotStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** True when this caller took the slot; false when another run already holds it. */
  async claim(job: string, minute: number, instanceId: string): Promise<boolean> {
    const key = K.slot(job, minute);
    const claim: SlotClaim = { instanceId, at: Date.now() };
    const res = await this.kv.atomic()
      .check({ key, versionstamp: null })
      .set(key, claim, { expireIn: CLAIM_KEEP_MS })
      .commit();
    return res.ok;
  }

  /** Who ran a slot (tests, diagnosis); null when nobody claimed it. */
  async holder(job: string, minute: number): Promise<SlotClaim | null> {
    return (await this.kv.get<SlotClaim>(K.slot(job, minute))).value;
  }
}
