import type { ApiRegistry } from "../../lib/http/api.ts";
import { XLSX_TYPE, xlsxAttachment } from "../../lib/http/attachment.ts";
import type { Rate } from "./model.ts";
import { BizError } from "../../lib/errors.ts";
import {
  allocateBody,
  balanceBody,
  codeImportForm,
  codeListBody,
  ledgerBody,
  logBody,
  logExportBody,
  redeemBody,
  setRateBody,
} from "./schemas.ts";
import type { WalletService } from "./service.ts";
import type { WalletLogs } from "./logs.ts";
import type { CardCodes } from "./card_codes.ts";
import { zodRefusal } from "../../lib/http/validation.ts";

/** The services these routes use (the composition root passes them). */
export interface WalletRouteDeps {
  wallet: WalletService;
  walletLogs: WalletLogs;
  cardCodes: CardCodes;
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
  registerWalletLogRoutes(api, s, tag);
  registerCardCodeRoutes(api, s, tag);
}

/** The wallet page's consumption, allocation and business logs, and their export. */
function registerWalletLogRoutes(api: ApiRegistry, s: WalletRouteDeps, tag: string) {
  api.add({
    method: "post",
    path: `${W}/log`,
    need: "read",
    tag,
    summary:
      "Consumption, allocation or business log of an account of the caller's subtree, filtered by time; paged, newest first",
    body: logBody,
    handler: ({ body, c }) => s.walletLogs.page(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${W}/log/export`,
    need: "read",
    tag,
    summary: "The filtered log as xlsx (at most 30000 rows)",
    body: logExportBody,
    produces: XLSX_TYPE,
    handler: async ({ body, c }) => {
      const bytes = await s.walletLogs.export(
        c.var.session,
        body,
        (key, params) => c.var.t(key, params ?? {}),
      );
      return xlsxAttachment(bytes, `wallet-${body.view}.xlsx`);
    },
  });
}

/** Recharge card codes: the administrator imports and lists them; users redeem them. */
function registerCardCodeRoutes(api: ApiRegistry, s: WalletRouteDeps, tag: string) {
  api.add({
    method: "post",
    path: `${W}/cards/import`,
    need: "manageAccounts",
    tag,
    summary:
      "Administrator: import recharge card codes of one type (multipart: type, file — xlsx or text/CSV, at most 10000 codes)",
    form: codeImportForm,
    handler: async ({ c }) => {
      const form = await c.req.formData();
      const parsed = codeImportForm.safeParse({
        type: form.get("type") ?? undefined,
        file: form.get("file") ?? undefined,
      });
      if (!parsed.success) throw zodRefusal(parsed.error);
      const file = parsed.data.file;
      if (!(file instanceof File)) {
        throw new BizError("illegalParameter", { field: "file" }, { field: "file" });
      }
      return s.cardCodes.import(
        c.var.session,
        parsed.data.type,
        new Uint8Array(await file.arrayBuffer()),
      );
    },
  });
  api.add({
    method: "post",
    path: `${W}/cards/list`,
    need: "manageAccounts",
    tag,
    summary: "Administrator: imported card codes, used or unused; paged",
    body: codeListBody,
    handler: ({ body, c }) =>
      s.cardCodes.list(c.var.session, body.used, body.pageNum, body.pageSize),
  });
  api.add({
    method: "post",
    path: `${W}/cards/redeem`,
    need: "recharge",
    tag,
    summary: "Redeem a recharge card code of the chosen type into the caller's card balance",
    body: redeemBody,
    handler: ({ body, c }) => s.wallet.redeem(c.var.session, body.code, body.type),
  });
}
