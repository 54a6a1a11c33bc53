import type { ApiRegistry } from "../../lib/http/api.ts";
import { addPackageBody, listPackagesBody, packageIdBody, updatePackageBody } from "./schemas.ts";
import type { PackageService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface PackageRouteDeps {
  packages: PackageService;
}

const P = "/v3/new/package";

export function registerPackageRoutes(api: ApiRegistry, s: PackageRouteDeps) {
  const tag = "Wallet";
  api.add({
    method: "post",
    path: `${P}/add`,
    need: "manageAccounts",
    tag,
    summary: "Administrator or distributor: offer a package to the accounts below",
    body: addPackageBody,
    handler: ({ body, c }) => s.packages.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${P}/update`,
    need: "manageAccounts",
    tag,
    summary: "Change one of the caller's packages",
    body: updatePackageBody,
    handler: ({ body, c }) => s.packages.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${P}/delete`,
    need: "manageAccounts",
    tag,
    summary: "Withdraw one of the caller's packages",
    body: packageIdBody,
    handler: ({ body, c }) => s.packages.delete(c.var.session, body.id),
  });
  api.add({
    method: "post",
    path: `${P}/list`,
    need: "read",
    tag,
    summary: "The caller's own packages and those offered to it from above (cost after discount)",
    body: listPackagesBody,
    handler: ({ c }) => s.packages.list(c.var.session),
  });
  api.add({
    method: "post",
    path: `${P}/buy`,
    need: "recharge",
    tag,
    summary:
      "Buy a package offered from above: pays Mi coins × discount, receives its card and SMS credits",
    body: packageIdBody,
    handler: ({ body, c }) => s.packages.buy(c.var.session, body.id),
  });
}
