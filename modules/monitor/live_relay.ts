import type { Cluster } from "../../lib/cluster/types.ts";
import { SUBJECTS } from "../../lib/cluster/types.ts";
import { log } from "../../lib/log.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceState, DeviceStatus, StoredPosition } from "../devices/model.ts";
import type { AlertRaised } from "../alerts/events.ts";
import type { GatewayEvent } from "../gateway/events.ts";

const relayLog = log.area("monitor");

/** The live events a browser is shown (the stream's `handle` gets these kinds). */
export type LiveEvent = Extract<GatewayEvent, { type: "position" | "status" | "alert" }>;

/**
 * Whose events a stream wants from other instances: a subtree (the map of an account and its
 * descendants) or one account's own devices (one device's stream, a share link).
 */
export interface LiveScope {
  kind: "subtree" | "account";
  accountId: string;
}

/** On the wire: compact keys, the publisher's id so it skips its own message. */
type Wire =
  & { o: string; i: string; u: string }
  & (
    | { t: "p"; p: StoredPosition; s: DeviceState | null }
    | { t: "s"; st: DeviceStatus; pr: DeviceStatus }
    | { t: "a"; a: AlertRaised["alert"] }
  );

type Sink = (ev: LiveEvent) => void;

interface Viewer {
  key: string;
  scope: LiveScope;
  sinks: Set<Sink>;
  /** The subject path the subscriptions use (null when the account is gone). */
  path: string | null;
  unsubscribe: () => void;
  /** Re-routings run one at a time (a move's re-subscribe never races the first one). */
  routing: Promise<void>;
}

/** Account ids made NATS-token-safe (ids are sequence numbers; this guards anything else). */
const token = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * Cluster mode's live events (issue 23): the instance that processes a device's event
 * publishes it once on `tp.live.<ancestry path of the device's owner>`; an instance with
 * stream clients subscribes once per viewer (`tp.live.<path>` and `tp.live.<path>.>` for a
 * subtree), shared by that viewer's streams and dropped with its last one. Events this instance
 * published reach its own clients through the local bus, so its own messages are skipped.
 * A remote position also brings the device's state (newer wins), so the stream's status and
 * the map's objects on this instance follow a device held elsewhere.
 *
 * Account moves change paths: `accountsChanged` (the move's sync) drops the cached paths and
 * re-subscribes every viewer whose path changed.
 */
export class LiveRelay {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  /** Owner id → its path, resolved once (promises keep one owner's events in order). */
  private paths = new Map<string, Promise<string | null>>();
  private viewers = new Map<string, Viewer>();

  constructor(
    private readonly cluster: Pick<Cluster, "instanceId" | "link">,
    private readonly accounts: Pick<AccountLookup, "get">,
    private readonly directory: DeviceDirectory,
  ) {}

  /** Publishes an event this instance processed (called by the stream's handle). */
  publish(ev: LiveEvent): void {
    this.pathOf(ev.userId).then((path) => {
      if (path !== null) this.cluster.link.publish(`${SUBJECTS.live}.${path}`, this.encode(ev));
    }).catch((e) => relayLog.error("live event not published", e));
  }

  /**
   * Delivers other instances' events of `scope` to `sink` until `detach`. `ready` resolves
   * once the subscription is in place at the messaging server: from then on nothing is missed.
   */
  attach(scope: LiveScope, sink: Sink): { detach: () => void; ready: Promise<void> } {
    const key = `${scope.kind}:${scope.accountId}`;
    let viewer = this.viewers.get(key);
    if (!viewer) {
      viewer = {
        key,
        scope,
        sinks: new Set(),
        path: null,
        unsubscribe: () => {},
        routing: Promise.resolve(),
      };
      this.viewers.set(key, viewer);
      void this.subscribe(viewer);
    }
    viewer.sinks.add(sink);
    const attached = viewer;
    const detach = () => {
      attached.sinks.delete(sink);
      if (attached.sinks.size > 0 || this.viewers.get(key) !== attached) return;
      this.viewers.delete(key);
      attached.unsubscribe();
    };
    return { detach, ready: attached.routing.then(() => this.cluster.link.flush()) };
  }

  /** Accounts moved (here or on another instance): paths are re-read, viewers re-routed. */
  async accountsChanged(): Promise<void> {
    this.paths.clear();
    for (const viewer of this.viewers.values()) await this.subscribe(viewer);
  }

  /** Other instances' events handed to this instance's streams (per viewer), since start. */
  delivered = 0;

  /** Subscriptions open on this instance (viewers), for tests and gauges. */
  get viewerCount(): number {
    return this.viewers.size;
  }

  /** (Re-)subscribes a viewer when its path is new or changed. */
  private subscribe(viewer: Viewer): Promise<void> {
    viewer.routing = viewer.routing.then(() => this.route(viewer)).catch((e) =>
      relayLog.error("live subscription failed", e)
    );
    return viewer.routing;
  }

  private async route(viewer: Viewer): Promise<void> {
    const path = await this.pathOf(viewer.scope.accountId);
    // Its last stream closed meanwhile: detach already dropped it.
    if (this.viewers.get(viewer.key) !== viewer) return;
    if (path === viewer.path) return;
    viewer.unsubscribe();
    viewer.unsubscribe = () => {};
    viewer.path = path;
    if (path === null) return;
    const subject = `${SUBJECTS.live}.${path}`;
    const handler = (data: Uint8Array) => this.deliver(viewer, data);
    const stops = [this.cluster.link.subscribe(subject, handler)];
    if (viewer.scope.kind === "subtree") {
      stops.push(this.cluster.link.subscribe(`${subject}.>`, handler));
    }
    viewer.unsubscribe = () => stops.forEach((stop) => stop());
  }

  private pathOf(accountId: string): Promise<string | null> {
    return this.paths.get(accountId) ?? this.resolve(accountId);
  }

  private resolve(accountId: string): Promise<string | null> {
    const path = this.accounts.get(accountId).then((account) => {
      if (!account) return null;
      const ancestors = account.fullParentId.split(",").filter(Boolean);
      return [...ancestors, account.id].map(token).join(".");
    });
    if (this.paths.size > 10_000) this.paths.clear(); // bound: one entry per active owner
    this.paths.set(accountId, path);
    path.catch(() => this.paths.delete(accountId));
    return path;
  }

  private encode(ev: LiveEvent): Uint8Array {
    const head = { o: this.cluster.instanceId, i: ev.imei, u: ev.userId };
    const wire: Wire = ev.type === "position"
      ? { ...head, t: "p", p: ev.position, s: this.directory.state(ev.imei) ?? null }
      : ev.type === "status"
      ? { ...head, t: "s", st: ev.status, pr: ev.previous }
      : { ...head, t: "a", a: ev.alert };
    return this.encoder.encode(JSON.stringify(wire));
  }

  private deliver(viewer: Viewer, data: Uint8Array): void {
    let wire: Wire;
    try {
      wire = JSON.parse(this.decoder.decode(data));
    } catch {
      return relayLog.warn("unreadable live event");
    }
    if (wire.o === this.cluster.instanceId) return; // shown already through the local bus
    const ev = this.decode(wire);
    this.delivered++;
    for (const sink of viewer.sinks) sink(ev);
  }

  private decode(wire: Wire): LiveEvent {
    const base = { imei: wire.i, userId: wire.u };
    switch (wire.t) {
      case "p":
        if (wire.s) this.directory.rememberNewerState(wire.s);
        return { type: "position", ...base, position: wire.p };
      case "s":
        return { type: "status", ...base, status: wire.st, previous: wire.pr };
      case "a":
        return { type: "alert", ...base, alert: wire.a };
    }
  }
}
