/**
 * The events the bus carries (each declared by the module that publishes it) and the
 * reactions to the ones that are not the position pipeline's (app/position_pipeline.ts):
 * who is told when accounts move, devices change hands, balances change, commands settle,
 * drivers swipe their cards.
 */
import { EventBus } from "../lib/events/bus.ts";
import type { AccountCreated, AccountMoved } from "../modules/accounts/events.ts";
import type { CreditsReader } from "../modules/credits/model.ts";
import type { FenceCrossed } from "../modules/alerts/events.ts";
import type { AccountStore } from "../modules/accounts/store.ts";
import type { CommandSettled } from "../modules/commands/events.ts";
import type { DevicesImported, DevicesTransferred } from "../modules/devices/events.ts";
import type { GatewayEvent } from "../modules/gateway/events.ts";
import type { GatewayStore } from "../modules/gateway/link/store.ts";
import type { PlatformNotices } from "../modules/notifications/notices.ts";
import type { BalancesChanged } from "../modules/wallet/events.ts";
import type { SwipeService } from "../modules/fleet/swipes.ts";
import type { WorkModeService } from "../modules/workmodes/service.ts";
import type { PushDelivery } from "../modules/openapi/push_delivery.ts";

/** Everything that happens and is told: the union of every module's events. */
export type AppEvent =
  | GatewayEvent
  | FenceCrossed
  | AccountMoved
  | AccountCreated
  | DevicesImported
  | DevicesTransferred
  | BalancesChanged
  | CommandSettled;

export type AppBus = EventBus<AppEvent>;

export function createBus(): AppBus {
  return new EventBus<AppEvent>();
}

/**
 * Reactions to the events of users' requests. They are delivered (awaited, in this order)
 * before the request answers, so a moved account finds its notice in the message center.
 * All are durable: a lost one is a missing notice or a stuck work-mode task.
 */
export function connectReactions(
  bus: AppBus,
  a: {
    notices: PlatformNotices;
    accountStore: AccountStore;
    gatewayStore: GatewayStore;
    workModes: WorkModeService;
    /** Reading a new account's credits grants (and logs) its free ones. */
    credits: CreditsReader;
    fleetSwipes: Pick<SwipeService, "onIdentified">;
    /** Command results to the Open API's push endpoints. */
    openPush: Pick<PushDelivery, "onCommand">;
  },
): void {
  bus.on("accountCreated", async (e) => void await a.credits.creditsOf(e.account.id), {
    name: "credits: free credits of a new account",
    durable: true,
  });
  bus.on("accountMoved", (e) => a.notices.accountMoved(e.account, e.target), {
    name: "message center: account move",
    durable: true,
  });
  bus.on(
    "devicesTransferred",
    (e) => a.notices.devicesAllocated(e.targetId, e.devices, e.operatorId),
    {
      name: "message center: device allocation",
      durable: true,
    },
  );
  // Devices are never deleted, but an IMEI may come back (a store rebuilt from records, a
  // device record removed by hand): whatever JT/T 808 auth code it had must not survive.
  bus.on("devicesImported", (e) => a.gatewayStore.forgetAuthCodes(e.devices.map((d) => d.imei)), {
    name: "gateway: forget auth codes",
    durable: true,
  });
  // Importing into one's own account is stocking up, not an allocation.
  bus.on("devicesImported", async (e) => {
    const operator = await a.accountStore.get(e.operatorId);
    if (!operator || operator.id === e.userId || operator.virtual?.masterId === e.userId) return;
    await a.notices.devicesAllocated(e.userId, e.devices, e.operatorId);
  }, { name: "message center: device allocation (import)", durable: true });
  bus.on("balancesChanged", (e) =>
    a.notices.cardsConsumed(e.entries, (id) => {
      const cards: Record<string, number> = e.balances.get(id)?.cards ?? {};
      return Object.values(cards).reduce((sum, n) => sum + n, 0);
    }), { name: "message center: card consumption", durable: true });
  // A driver identity the gateway stored becomes a swipe record (the vehicle's current driver).
  bus.on("driverIdentified", a.fleetSwipes.onIdentified, {
    name: "fleet: RFID swipes",
    durable: true,
  });
  bus.on("commandSettled", (e) => a.workModes.onCommand(e.command), {
    name: "work modes: task states",
    durable: true,
  });
  bus.on("commandSettled", a.openPush.onCommand, {
    name: "open api push: command results",
    durable: true,
  });
}
