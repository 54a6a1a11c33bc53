import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { email } from "../accounts/schemas.ts";
import type { OwnEmail } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface OwnEmailRouteDeps {
  ownEmail: OwnEmail;
}

const address = email.pipe(z.string().min(3));

export function registerOwnEmailRoutes(api: ApiRegistry, s: OwnEmailRouteDeps) {
  api.add({
    method: "post",
    path: "/v3/new/myEmail/sendCode",
    need: "self",
    tag: "Account",
    summary: "Mail a six-digit code to a new address for the caller's own e-mail (once a minute)",
    body: z.object({ email: address }).strict(),
    handler: ({ body, c }) => s.ownEmail.sendCode(c.var.session, body.email),
  });
  api.add({
    method: "post",
    path: "/v3/new/myEmail/confirm",
    need: "self",
    tag: "Account",
    summary: "Set the caller's own e-mail with the code mailed to it",
    body: z.object({
      email: address,
      code: z.string().regex(/^\d{6}$/, "validation.codeForm"),
    }).strict(),
    handler: ({ body, c }) => s.ownEmail.confirm(c.var.session, body.email, body.code),
  });
}
