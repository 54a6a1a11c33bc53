/**
 * The alert engine's per-device state in the store (cluster mode, issue 23). Written with the
 * alerts it caused (same commit) and otherwise behind, in batches; read when a device's first
 * event reaches an instance.
 */
import type { SavedTrack } from "./engine_state.ts";

const K = {
  track: (imei: string) => ["alerts", "engineState", imei],
};

export class EngineStateStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** A new commit to fill with addTo (and the alerts' writes through AlertStore.addTo). */
  openCommit(): Deno.AtomicOperation {
    return this.kv.atomic();
  }

  addTo(op: Deno.AtomicOperation, imei: string, track: SavedTrack): void {
    op.set(K.track(imei), track);
  }

  /** The stored tracks of these devices, in order (null: none stored). */
  async loadMany(imeis: string[]): Promise<(SavedTrack | null)[]> {
    const out: (SavedTrack | null)[] = [];
    for (let i = 0; i < imeis.length; i += 10) {
      const got = await this.kv.getMany<SavedTrack[]>(imeis.slice(i, i + 10).map(K.track));
      for (const e of got) out.push(e.value);
    }
    return out;
  }
}
