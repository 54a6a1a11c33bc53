import type { Services } from "../../lib/services.ts";

/**
 * Connects the message center to the services where its events happen: account moves,
 * device transfers (allocation) and wallet changes (card consumption).
 */
export function wirePlatformNotices(s: Services): void {
  s.accounts.onMoved.push((moved, target) => s.notices.accountMoved(moved, target));
  s.deviceTransfer.onTransferred.push((targetId, moved, operatorId) =>
    s.notices.devicesAllocated(targetId, moved, operatorId)
  );
  // Importing into one's own account is stocking up, not an allocation.
  s.devices.onImported.push(async (userId, added, operatorId) => {
    const operator = await s.accountStore.get(operatorId);
    if (!operator || operator.id === userId || operator.virtual?.masterId === userId) return;
    await s.notices.devicesAllocated(userId, added, operatorId);
  });
  s.wallet.onApplied.push((entries, balances) =>
    s.notices.cardsConsumed(entries, (id) => {
      const cards: Record<string, number> = balances.get(id)?.cards ?? {};
      return Object.values(cards).reduce((sum, n) => sum + n, 0);
    })
  );
}
