/**
 * Planned routes of an enterprise (spec business §2 /fleetPath, §3 Route, §5 limits): the
 * fleet access rule, validation beyond the schema (points, length, window, bound devices),
 * the route line (straight legs, or road-snapped through ROUTING_URL), and the corridor watch
 * kept in step with every change.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AlertHistory } from "../alerts/types.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import { type FleetAccess, type FleetScope, inScope } from "./access.ts";
import type { Page } from "./model.ts";
import { lineLengthM } from "./paths_geometry.ts";
import { PATH_LIMITS, type PlannedRoute, type RoutePoint } from "./paths_model.ts";
import type { RoadRouter } from "./paths_routing.ts";
import type { listBody, RouteInput } from "./paths_schemas.ts";
import type { PathStore } from "./paths_store.ts";
import type { CorridorWatch } from "./paths_watch.ts";
import type { z } from "zod";

export class PathService {
  /** Every route, by id (small: routes are rules, not data). */
  private routes = new Map<string, PlannedRoute>();
  /** Told the ids of routes written here (cluster mode's sync re-reads them elsewhere). */
  onChanged: (ids: string[]) => void = () => {};

  constructor(
    private readonly store: PathStore,
    private readonly access: FleetAccess,
    private readonly directory: Pick<DeviceDirectory, "get">,
    private readonly watch: CorridorWatch,
    /** Null when ROUTING_URL is not set: lines are straight legs. */
    private readonly router: RoadRouter | null,
  ) {}

  async load(): Promise<void> {
    for (const r of await this.store.all()) {
      this.routes.set(r.id, r);
      this.watch.set(r);
    }
  }

  async list(session: Session, q: z.infer<typeof listBody>): Promise<Page<PlannedRoute>> {
    const scope = await this.access.scope(session);
    const keyword = q.keyword?.toLowerCase();
    const all = [...this.routes.values()].filter((r) =>
      inScope(scope, r) && (!keyword || r.name.toLowerCase().includes(keyword)) &&
      (!q.imei || r.imeis.includes(q.imei)) && (!q.id || r.id === q.id)
    ).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const start = (q.pageNum - 1) * q.pageSize;
    return { total: all.length, list: all.slice(start, start + q.pageSize) };
  }

  /**
   * Route deviations raised since UTC midnight for the devices bound to the scope's routes
   * (the data board's tile), read from the alert history of those devices only.
   */
  async deviationsToday(
    scope: FleetScope,
    alerts: AlertHistory,
    now = Date.now(),
  ): Promise<number> {
    const imeis = new Set<string>();
    for (const r of this.routes.values()) {
      if (inScope(scope, r)) r.imeis.forEach((i) => imeis.add(i));
    }
    const midnight = now - now % 86_400_000;
    const counts = await Promise.all(
      [...imeis].map(async (imei) =>
        (await alerts.range(imei, midnight, now)).filter((a) => a.type === "routeDeviation").length
      ),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  async add(session: Session, body: RouteInput): Promise<{ id: string }> {
    const account = await this.access.targetAccount(session, body.userId);
    const scope = await this.access.scope(session);
    const now = new Date().toISOString();
    const route = await this.build(scope, body, {
      id: crypto.randomUUID(),
      accountId: account.id,
      timeZone: account.timeZones || "UTC",
      createdAt: now,
    });
    if (
      [...this.routes.values()].filter((r) => r.accountId === account.id).length >=
        PATH_LIMITS.maxRoutes
    ) {
      throw new BizError("illegalParameter", {
        field: "routes",
        reason: `≤ ${PATH_LIMITS.maxRoutes}`,
      });
    }
    await this.commit(route);
    return { id: route.id };
  }

  async update(session: Session, body: RouteInput & { id: string }): Promise<{ id: string }> {
    const scope = await this.access.scope(session);
    const current = this.routes.get(body.id);
    // Missing and foreign routes are refused alike, so ids cannot be probed.
    if (!current || !inScope(scope, current)) throw new BizError("permissionDenied");
    const route = await this.build(scope, body, current);
    await this.commit(route);
    return { id: route.id };
  }

  async remove(session: Session, ids: string[]): Promise<{ deleted: number }> {
    const scope = await this.access.scope(session);
    const found = ids.map((id) => this.routes.get(id));
    if (found.some((r) => !r || !inScope(scope, r))) throw new BizError("permissionDenied");
    for (const r of found as PlannedRoute[]) {
      await this.store.remove(r);
      this.routes.delete(r.id);
      this.watch.remove(r.id);
    }
    this.onChanged(found.map((r) => r!.id));
    return { deleted: found.length };
  }

  /** Checks the input and works out the line; throws the first refusal. */
  private async build(
    scope: FleetScope,
    body: RouteInput,
    base: Pick<PlannedRoute, "id" | "accountId" | "timeZone" | "createdAt">,
  ): Promise<PlannedRoute> {
    if (body.points.length > PATH_LIMITS.maxPoints) {
      throw new BizError("routePointsLimit", { max: PATH_LIMITS.maxPoints });
    }
    if (body.startTime === body.endTime) throw new BizError("routeTimeInvalid");
    const clash = [...this.routes.values()].some((r) =>
      r.accountId === base.accountId && r.id !== base.id &&
      r.name.toLowerCase() === body.name.toLowerCase()
    );
    if (clash) throw new BizError("routeNameExists");
    const imeis = [...new Set(body.imeis)];
    for (const imei of imeis) {
      const device = this.directory.get(imei);
      if (!device || !inScope(scope, { accountId: device.userId })) {
        throw new BizError("ruleDeviceOtherUser", { imei });
      }
    }
    // The drawn legs bound the length first, so a far-flung route never reaches the server.
    this.checkLength(lineLengthM(body.points));
    const snap = body.snap ?? true;
    const points = body.points.map(micro);
    const road = this.router && snap ? (await this.router.snap(points)).map(micro) : null;
    const line = road ?? points;
    const lengthM = lineLengthM(line);
    this.checkLength(lengthM);
    return {
      ...base,
      name: body.name,
      points,
      line,
      lineKind: road ? "road" : "straight",
      lengthM: Math.round(lengthM),
      offset: body.offset,
      weekdays: [...new Set(body.weekdays)].sort(),
      startTime: body.startTime,
      endTime: body.endTime,
      minOffMinutes: body.minOffMinutes,
      imeis,
      updatedAt: new Date().toISOString(),
    };
  }

  private checkLength(metres: number): void {
    if (metres > PATH_LIMITS.maxLengthKm * 1000) {
      throw new BizError("routeTooLong", {
        km: Math.round(metres / 100) / 10,
        max: PATH_LIMITS.maxLengthKm,
      });
    }
  }

  private async commit(route: PlannedRoute): Promise<void> {
    await this.store.save(route);
    this.routes.set(route.id, route);
    this.watch.set(route);
    this.onChanged([route.id]);
  }

  /** Re-reads routes another instance wrote or removed (and their corridor watch). */
  async reload(ids: string[]): Promise<void> {
    for (const id of ids) {
      const route = await this.store.get(id);
      if (route) {
        this.routes.set(id, route);
        this.watch.set(route);
      } else {
        this.routes.delete(id);
        this.watch.remove(id);
      }
    }
  }
}

/** Coordinates to microdegrees (0.1 m), as the store keeps the line. */
function micro(p: RoutePoint): RoutePoint {
  return { lat: Math.round(p.lat * 1e6) / 1e6, lng: Math.round(p.lng * 1e6) / 1e6 };
}
