import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { accountId } from "../accounts/schemas.ts";
import { XLSX_TYPE } from "./model.ts";
import type { AccountInfoExport } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface AccountInfoRouteDeps {
  accountInfo: AccountInfoExport;
}

export function registerAccountInfoRoutes(api: ApiRegistry, s: AccountInfoRouteDeps) {
  api.add({
    method: "post",
    path: "/v3/new/accountInfo/export",
    need: "read",
    tag: "Account",
    summary:
      "An account's info and its sub-accounts as xlsx; once every ten minutes per account (40027)",
    body: z.object({ id: accountId }).strict(),
    produces: XLSX_TYPE,
    handler: async ({ body, c }) => {
      const file = await s.accountInfo.export(
        c.var.session,
        body.id,
        (key, params) => c.var.t(key, params ?? {}),
      );
      return new Response(file.bytes, {
        headers: {
          "content-type": XLSX_TYPE,
          "content-disposition": `attachment; filename="${file.name}"`,
        },
      });
    },
  });
}
