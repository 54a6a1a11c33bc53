import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { applyBody, approveBody, listBody, rejectBody, setPasswordBody } from "./schemas.ts";
import type { DemoService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface DemoRouteDeps {
  demo: DemoService;
}

export function registerDemoRoutes(api: ApiRegistry, s: DemoRouteDeps) {
  const tag = "Demo accounts";
  api.add({
    method: "post",
    path: "/v3/new/demo/apply",
    need: "public",
    access: "public",
    tag,
    summary:
      "Apply for a trial account (public; consent to /agreements and the captcha required; rate-limited per address)",
    body: applyBody,
    handler: ({ body, c }) => {
      const { consent: _consent, ...input } = body;
      return s.demo.apply(input, c.var.clientIp);
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/demo/list",
    need: "manageAccounts",
    tag,
    summary: "Demo applications, newest first (administrators)",
    body: listBody,
    handler: ({ body, c }) => s.demo.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/demo/approve",
    need: "manageAccounts",
    tag,
    summary:
      "Approve: creates the trial account and mails a one-time link to set its password (again: a new link)",
    body: approveBody,
    handler: ({ body, c }) => s.demo.approve(c.var.session, body.id, new URL(c.req.url).origin),
  });
  api.add({
    method: "post",
    path: "/v3/new/demo/reject",
    need: "manageAccounts",
    tag,
    summary: "Reject a pending application (administrators)",
    body: rejectBody,
    handler: ({ body, c }) => s.demo.reject(c.var.session, body.id, body.reason),
  });
  api.add({
    method: "post",
    path: "/v3/new/demo/setPassword",
    need: "public",
    access: "public",
    tag,
    summary: "Set the trial account's password with the mailed link's token (works once)",
    body: setPasswordBody,
    handler: ({ body }) => {
      if (body.password !== body.confirmPassword) {
        throw new BizError("passwordMismatch", {}, { field: "confirmPassword" });
      }
      return s.demo.setPassword(body.token, body.password);
    },
  });
}
