import type { CacheSync } from "../../lib/cluster/cache_sync.ts";
import type { PositionStore } from "./store.ts";

/** Sync areas of the position store (tp.sync.<area>). */
export const POSITION_SYNC = { journal: "positionJournal", blocks: "positionBlocks" } as const;

/**
 * Cluster mode: the position store indexes its journal in memory (which chunks hold a
 * device's points not yet packed into blocks) and remembers blocks it read. Points journaled
 * or blocks written on one instance are announced, so a track read on any other instance finds
 * them: journal messages carry `<seq>/<writer>:<imei>,<imei>…` per chunk, block messages the IMEIs.
 * Single mode: nothing is installed (no work per commit).
 */
export function syncPositions(store: PositionStore, sync: CacheSync): () => void {
  if (!sync.active) return () => {};
  store.onJournaled = (w) => {
    const ids = w.chunks.map((chunk, i) => {
      const imeis = chunk.imeis.filter((_, d) => chunk.counts[d] > 0);
      return `${w.seqs[i]}/${w.writer ?? ""}:${imeis.join(",")}`;
    });
    sync.publish(POSITION_SYNC.journal, ids);
  };
  store.onBlocksWritten = (imeis) => sync.publish(POSITION_SYNC.blocks, imeis);
  const stops = [
    sync.on(POSITION_SYNC.journal, (ids) => {
      for (const id of ids) {
        const colon = id.indexOf(":"), slash = id.indexOf("/");
        const imeis = id.slice(colon + 1);
        const writer = slash >= 0 && slash < colon ? id.slice(slash + 1, colon) : null;
        const seq = Number(id.slice(0, slash >= 0 && slash < colon ? slash : colon));
        if (imeis) store.indexElsewhere(seq, imeis.split(","), writer);
      }
    }),
    sync.on(POSITION_SYNC.blocks, (imeis) => store.blocksWrittenElsewhere(imeis)),
  ];
  return () => stops.forEach((stop) => stop());
}
