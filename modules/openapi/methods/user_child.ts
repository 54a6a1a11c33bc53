/**
 * `jimi.user.child.list|create|del|move|update` (issue 22): the key's account manages the
 * accounts below it through the accounts service, with the console's rules (the console's
 * schemas validate, the same service refuses). Accounts are named by their login names, as
 * the public documents name users; outside the caller's subtree is 1002.
 */
import { z } from "zod";
import { BizError } from "../../../lib/errors.ts";
import type { Session } from "../../../lib/http/env.ts";
import type { AccessGuard } from "../../accounts/access.ts";
import { type Account, ACCOUNT_TYPE_VALUES, type AccountLookup } from "../../accounts/model.ts";
import * as S from "../../accounts/schemas.ts";
import type { AccountService } from "../../accounts/service.ts";
import { OPEN_CODES, OpenApiError, type OpenMethod } from "../types.ts";
import { formatIso } from "./common.ts";

export interface UserChildDeps {
  access: AccessGuard;
  accounts: AccountLookup;
  accountService: Pick<AccountService, "add" | "update" | "remove" | "move">;
}

const login = z.string().trim().min(1).max(50);
const optional = z.string().trim().max(2000).optional();
/** `yyyy-MM-dd`, or empty for no expiry. */
const expiration = z.string().trim().regex(/^(\d{4}-\d{2}-\d{2})?$/, "yyyy-MM-dd").optional();

const listParams = z.object({ target: login.optional() }).strict();
const profile = {
  name: optional,
  phone: optional,
  email: optional,
  company_name: optional,
  contact: optional,
  remark: optional,
  language: z.enum(["en", "zh"]).optional(),
  expiration,
};
const createParams = z.object({
  target: login.optional(),
  account: login,
  password: z.string().min(1).max(100),
  type: z.string().trim().regex(/^\d+$/, "integer").transform(Number).refine(
    (t) => (ACCOUNT_TYPE_VALUES as number[]).includes(t),
    "8 distributor, 9 enterprise, 11 sales, 12 end user",
  ),
  ...profile,
}).strict();
const delParams = z.object({ account: login }).strict();
const moveParams = z.object({
  accounts: z.string().transform((
    s,
  ) => [...new Set(s.split(",").map((x) => x.trim()).filter(Boolean))])
    .refine((l) => l.length >= 1 && l.length <= 100, "1-100 accounts"),
  target: login,
}).strict();
const updateParams = z.object({ account: login, ...profile }).strict();

/** Parses with a console schema: its refusal is a parameter error (1001). */
function consoleInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new OpenApiError(
    OPEN_CODES.parameter,
    `${issue?.path.join(".") || "parameters"}: ${issue?.message ?? "invalid"}`,
  );
}

/** The profile parameters as the console's fields (absent ones left out). */
function profileFields(p: z.infer<typeof updateParams>) {
  const fields: Record<string, unknown> = {
    nickName: p.name,
    phone: p.phone,
    email: p.email,
    companyName: p.company_name,
    contact: p.contact,
    description: p.remark,
    language: p.language,
    expiration: p.expiration === undefined ? undefined : p.expiration || null,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function childRow(a: Account) {
  return {
    account: a.account,
    name: a.nickName,
    type: a.accountType,
    phone: a.phone,
    email: a.email,
    companyName: a.companyName,
    contact: a.contact,
    language: a.language,
    remark: a.description,
    expiration: formatIso(a.expiration),
    createTime: formatIso(a.createdAt),
    enabledFlag: a.expiration && a.expiration < new Date().toISOString().slice(0, 10) ? 0 : 1,
  };
}

export function userChildMethods(d: UserChildDeps): OpenMethod[] {
  /** An account of the caller's subtree by login name (the caller's own when absent); 1002. */
  const named = async (session: Session, name: string | undefined): Promise<Account> => {
    if (!name) return (await d.access.caller(session)).owner;
    const id = await d.accounts.findIdByLogin(name);
    try {
      if (!id) throw new BizError("permissionDenied");
      return await d.access.visibleAccount(session, id);
    } catch {
      throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, `illegal user: ${name.slice(0, 50)}`);
    }
  };
  const list: OpenMethod<typeof listParams> = {
    name: "jimi.user.child.list",
    need: "read",
    params: listParams,
    run: async ({ session, params }) => {
      const parent = await named(session, params.target);
      const kids = [];
      for await (const { id, summary } of d.accounts.subtree(parent.id)) {
        if (summary.parentId === parent.id) kids.push(id);
      }
      const accounts = await d.accounts.getMany(kids);
      accounts.sort((a, b) => a.account.localeCompare(b.account));
      return { result: accounts.map(childRow) };
    },
  };
  const create: OpenMethod<typeof createParams> = {
    name: "jimi.user.child.create",
    need: "manageAccounts",
    params: createParams,
    run: async ({ session, params: p }) => {
      const parent = await named(session, p.target);
      const input = consoleInput(S.addAccountBody, {
        account: p.account,
        password: p.password,
        accountType: p.type,
        parentId: parent.id,
        nickName: p.name || p.account,
        ...profileFields({ ...p, name: undefined }),
      });
      await d.accountService.add(session, input);
      return { result: { account: p.account } };
    },
  };
  const del: OpenMethod<typeof delParams> = {
    name: "jimi.user.child.del",
    need: "manageAccounts",
    params: delParams,
    run: async ({ session, params }) => {
      const target = await named(session, params.account);
      await d.accountService.remove(session, target.id);
      return { result: null };
    },
  };
  const move: OpenMethod<typeof moveParams> = {
    name: "jimi.user.child.move",
    need: "manageAccounts",
    params: moveParams,
    run: async ({ session, params }) => {
      const target = await named(session, params.target);
      const ids = [];
      for (const name of params.accounts) ids.push((await named(session, name)).id);
      await d.accountService.move(
        session,
        consoleInput(S.moveBody, { ids, targetId: target.id }).ids,
        target.id,
      );
      return { result: null };
    },
  };
  const update: OpenMethod<typeof updateParams> = {
    name: "jimi.user.child.update",
    need: "manageAccounts",
    params: updateParams,
    run: async ({ session, params }) => {
      const target = await named(session, params.account);
      await d.accountService.update(
        session,
        consoleInput(S.updateAccountBody, { id: target.id, ...profileFields(params) }),
      );
      return { result: null };
    },
  };
  return [list, create, del, move, update];
}
