/**
 * Turns a business operation (lib/http/api.ts ChangeRecord) into a log entry: the accounts and
 * devices its input names, in words, and the input itself with secrets masked.
 */
import type { AccountLookup } from "../accounts/model.ts";
import { MAX_DETAIL } from "./model.ts";

/** Input fields that always name an account; "target…" ones name where something goes. */
const ACCOUNT_KEYS = ["userId", "parentId", "targetUserId", "targetId"];
/** On account routes, id and ids name accounts too (elsewhere: fences, groups, templates). */
const ACCOUNT_ROUTE_KEYS = ["id", "ids"];
/** Values never written to the log. */
const SECRET = /pass|secret|token|captcha|^code$|verif/i;
/** IMEIs named in full before "(+n)". */
const IMEIS_SHOWN = 5;

type Input = Record<string, unknown>;

/** The input as a plain object: the JSON body or query, or the form's text fields and files. */
export function inputOf(input: unknown, form: FormData | null): Input {
  if (form) {
    const out: Input = {};
    for (const [k, v] of form.entries()) {
      out[k] = v instanceof File ? `${v.name} (${v.size} B)` : v;
    }
    return out;
  }
  return input && typeof input === "object" && !Array.isArray(input) ? input as Input : {};
}

const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is string | number =>
    typeof x === "string" || typeof x === "number"
  ).map(String);

/** "login, login → target (+ IMEIs)": what the call was about, in words. */
export async function describeTarget(
  route: string,
  input: Input,
  accounts: Pick<AccountLookup, "getMany">,
): Promise<string> {
  const keys = route.includes("/account/")
    ? [...ACCOUNT_KEYS, ...ACCOUNT_ROUTE_KEYS]
    : ACCOUNT_KEYS;
  const named = keys.flatMap((k) =>
    strings(input[k]).map((id) => ({ id, to: k.startsWith("target") }))
  );
  const found = new Map(
    (await accounts.getMany([...new Set(named.map((n) => n.id))])).map((a) => [a.id, a.account]),
  );
  const from = named.filter((n) => !n.to && found.has(n.id)).map((n) => found.get(n.id)!);
  const to = named.filter((n) => n.to && found.has(n.id)).map((n) => found.get(n.id)!);
  const imeis = [...strings(input.imei), ...strings(input.imeis)];
  const shown = imeis.slice(0, IMEIS_SHOWN).join(", ") +
    (imeis.length > IMEIS_SHOWN ? ` (+${imeis.length - IMEIS_SHOWN})` : "");
  const what = [shown, ...new Set(from)].filter(Boolean).join(", ");
  return [what, to.length ? `→ ${[...new Set(to)].join(", ")}` : ""].filter(Boolean).join(" ");
}

/** The input as compact JSON, secrets masked, cut to MAX_DETAIL characters. */
export function describeDetail(input: Input): string {
  const text = JSON.stringify(input, (k, v) => (k && SECRET.test(k) ? "***" : v)) ?? "";
  if (text === "{}") return "";
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}
