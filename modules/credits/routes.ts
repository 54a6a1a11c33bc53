import type { ApiRegistry } from "../../lib/http/api.ts";
import { creditsBalanceBody, creditsBuyBody, creditsLogBody, creditsShareBody } from "./schemas.ts";
import type { CreditsService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface CreditRouteDeps {
  credits: CreditsService;
}

const C = "/v3/new/credits";

export function registerCreditRoutes(api: ApiRegistry, s: CreditRouteDeps) {
  const tag = "Credits";
  api.add({
    method: "post",
    path: `${C}/balance`,
    need: "read",
    tag,
    summary:
      "Credits of the caller or an account below it: conversion, shared pool, this month's pushes",
    body: creditsBalanceBody,
    handler: ({ body, c }) => s.credits.balance(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: `${C}/buy`,
    need: "recharge",
    tag,
    summary:
      "Buy whole credits with Mi coins (coins: as many as they buy, rounded down; or credits)",
    body: creditsBuyBody,
    handler: ({ body, c }) => s.credits.buy(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${C}/share`,
    need: "manageAccounts",
    tag,
    summary: "Share the caller's credit pool with an account below it (at most 100 accounts)",
    body: creditsShareBody,
    handler: ({ body, c }) => s.credits.share(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: `${C}/unshare`,
    need: "manageAccounts",
    tag,
    summary: "Stop sharing the caller's credit pool with an account",
    body: creditsShareBody,
    handler: ({ body, c }) => s.credits.unshare(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: `${C}/log`,
    need: "read",
    tag,
    summary: "Credits log of the caller or an account below it, newest first; paged",
    body: creditsLogBody,
    handler: ({ body, c }) =>
      s.credits.log(c.var.session, body.userId, body.pageNum, body.pageSize),
  });
}
