import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Rate } from "./model.ts";
import { allocateBody, balanceBody, ledgerBody, setRateBody } from "./schemas.ts";
import type { WalletService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface WalletRouteDeps {
  wallet: WalletService;
}

const W = "/v3/new/wallet";

export function registerWalletRoutes(api: ApiRegistry, s: WalletRouteDeps) {
  const tag = "Wallet";
  api.add({
    method: "post",
    path: `${W}/balance`,
    need: "read",
    tag,
    summary: "Mi coins and recharge cards (by length) of the caller or an account below it",
    body: balanceBody,
    handler: ({ body, c }) => s.wallet.balance(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: `${W}/allocate`,
    need: "recharge",
    tag,
    summary:
      "Give Mi coins and recharge cards to an account below the caller (needs rechargeFlag; the administrator issues them)",
    body: allocateBody,
    handler: ({ body, c }) => s.wallet.allocate(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${W}/ledger`,
    need: "read",
    tag,
    summary: "Consumption and allocation log of an account, newest first; paged",
    body: ledgerBody,
    handler: ({ body, c }) =>
      s.wallet.ledger(c.var.session, body.userId, body.pageNum, body.pageSize),
  });
  api.add({
    method: "get",
    path: `${W}/rates`,
    need: "read",
    tag,
    summary: "Renewal option and Mi coin price per term of every model (null: no rate)",
    handler: () => s.wallet.rates(),
  });
  api.add({
    method: "post",
    path: `${W}/setRate`,
    need: "recharge",
    tag,
    summary: "Administrator: set or remove a model's renewal rate",
    body: setRateBody,
    handler: ({ body, c }) => s.wallet.setRate(c.var.session, body.mcType, body.rate as Rate),
  });
}
