import type { PlannedRoute, RoutePoint } from "./paths_model.ts";

/** As stored: the line packed as microdegrees (8 bytes a point; KV values are ≤ 64 KiB). */
type StoredRoute = Omit<PlannedRoute, "line"> & { line: Uint8Array };

/**
 * Keys:
 *   ["fleetPaths", "route", id]                  PlannedRoute
 *   ["fleetPaths", "byAccount", accountId, id]   true
 */
const K = {
  route: (id: string) => ["fleetPaths", "route", id],
  byAccount: (accountId: string, id: string) => ["fleetPaths", "byAccount", accountId, id],
};

export class PathStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Every route (loaded once at start for the corridor watch). */
  async all(): Promise<PlannedRoute[]> {
    const out: PlannedRoute[] = [];
    for await (const e of this.kv.list<StoredRoute>({ prefix: ["fleetPaths", "route"] })) {
      out.push(unpack(e.value));
    }
    return out;
  }

  async get(id: string): Promise<PlannedRoute | null> {
    const v = (await this.kv.get<StoredRoute>(K.route(id))).value;
    return v ? unpack(v) : null;
  }

  async save(r: PlannedRoute): Promise<void> {
    const before = await this.get(r.id);
    const op = this.kv.atomic().set(K.route(r.id), pack(r)).set(
      K.byAccount(r.accountId, r.id),
      true,
    );
    if (before && before.accountId !== r.accountId) op.delete(K.byAccount(before.accountId, r.id));
    await op.commit();
  }

  async remove(r: PlannedRoute): Promise<void> {
    await this.kv.atomic().delete(K.route(r.id)).delete(K.byAccount(r.accountId, r.id)).commit();
  }
}

function pack(r: PlannedRoute): StoredRoute {
  const ints = new Int32Array(r.line.length * 2);
  r.line.forEach((p, i) => {
    ints[i * 2] = Math.round(p.lat * 1e6);
    ints[i * 2 + 1] = Math.round(p.lng * 1e6);
  });
  return { ...r, line: new Uint8Array(ints.buffer) };
}

function unpack(s: StoredRoute): PlannedRoute {
  const ints = new Int32Array(s.line.slice().buffer);
  const line: RoutePoint[] = [];
  for (let i = 0; i < ints.length; i += 2) {
    line.push({ lat: ints[i] / 1e6, lng: ints[i + 1] / 1e6 });
  }
  return { ...s, line };
}
