/**
 * The domain event bus: what happened (a position stored, a device's state changed, an alert
 * raised, an account moved…) told to whoever reacts to it. It knows no module: events are
 * plain data tagged by `type`, and the composition root (app/events.ts) names the union of
 * every module's events it carries.
 *
 * Two ways to publish, matching the two kinds of producer:
 * - `publish` (the gateway's hot path, tens of thousands of events a second) calls the
 *   handlers synchronously and allocates nothing per event; a handler that returns a promise
 *   runs on its own and its failure is logged.
 * - `deliver` (a user's request: accounts moved, devices transferred) awaits each handler in
 *   turn, so what they do (a message-center notice) is done when the request answers.
 * A failing handler never disturbs the others or the producer.
 */
import { log } from "../log.ts";

const eventLog = log.area("events");

/** An event: a type tag and plain data (no functions, no live objects). */
export interface DomainEvent {
  readonly type: string;
}

/** The event of `E` whose tag is `T`. */
export type EventOf<E extends DomainEvent, T extends E["type"]> = Extract<E, { type: T }>;

export type Handler<E> = (event: E) => void | Promise<void>;

export interface SubscribeOptions {
  /** Shown in logs when the handler fails, and in `subscriptions()`. */
  name: string;
  /**
   * True for handlers that must see every event even in cluster mode (events will then travel
   * through a durable queue for them, e.g. the alert engine); false for those for which a lost
   * event only means a stale view (the live stream). Required so every subscriber decides.
   */
  durable: boolean;
}

/** What a producer needs: a module publishing its events depends on this, not on the bus. */
export interface Publisher<E extends DomainEvent> {
  publish(event: E): void;
  deliver(event: E): Promise<void>;
}

/** A publisher that tells nobody (a service built on its own, e.g. in a unit test). */
export const NO_EVENTS: Publisher<DomainEvent> = {
  publish() {},
  deliver: () => Promise.resolve(),
};

interface Subscription<E> extends SubscribeOptions {
  type: string;
  handler: Handler<E>;
}

export class EventBus<E extends DomainEvent> implements Publisher<E> {
  /** Handlers by event type, in subscription order (the order is the processing order). */
  private readonly byType = new Map<string, Subscription<E>[]>();

  /** Calls `handler` for every event of type `type`, after the handlers subscribed before. */
  on<T extends E["type"]>(
    type: T,
    handler: Handler<EventOf<E, T>>,
    opts: SubscribeOptions,
  ): () => void {
    const sub: Subscription<E> = { ...opts, type, handler: handler as Handler<E> };
    // Copy on write: a handler that unsubscribes during a publish does not skip the next one.
    this.byType.set(type, [...(this.byType.get(type) ?? []), sub]);
    return () => {
      const list = this.byType.get(type) ?? [];
      this.byType.set(type, list.filter((s) => s !== sub));
    };
  }

  publish(event: E): void {
    const list = this.byType.get(event.type);
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      const sub = list[i];
      try {
        const r = sub.handler(event);
        if (r) r.catch((e) => failed(sub, e));
      } catch (e) {
        failed(sub, e);
      }
    }
  }

  async deliver(event: E): Promise<void> {
    for (const sub of this.byType.get(event.type) ?? []) {
      try {
        await sub.handler(event);
      } catch (e) {
        failed(sub, e);
      }
    }
  }

  /** Who listens to what, in order (tests, and the architecture's self-description). */
  subscriptions(): { type: string; name: string; durable: boolean }[] {
    return [...this.byType.values()].flat().map(({ type, name, durable }) => ({
      type,
      name,
      durable,
    }));
  }
}

function failed(sub: SubscribeOptions & { type: string }, e: unknown): void {
  eventLog.error(`handler "${sub.name}" failed on ${sub.type}`, e);
}
