/**
 * The `/route/rest` reference page's data (issue 22): one entry per method (the frame's here,
 * the area methods' from methods/reference.ts), and each example's signature computed step
 * by step with a sample key, so the page shows exactly what a client must send.
 */
import { METHOD_REFERENCE, type MethodReference } from "./methods/reference.ts";
import { signParams, signText } from "./signature.ts";

export type { MethodReference };

const TOKEN = "8b1a9953c4611296a827abf8c47804d7e6c49c6b2a0d93f1a8b3e6f0c2d4e5f6";

/** The frame's methods: tokens and child accounts. */
const FRAME_REFERENCE: MethodReference[] = [
  {
    name: "jimi.oauth.token.get",
    description:
      "An access token for the key owner's account or an account of its subtree (no access_token needed). Failed attempts count like the login form's.",
    params: {
      user_id: "login name of the key owner's account or of an account below it",
      user_pwd_md5: "lower-case MD5 hex of that account's password",
      expires_in: "token lifetime in seconds, 60-7200",
    },
    example: {
      user_id: "fleet1",
      user_pwd_md5: "e10adc3949ba59abbe56e057f20f883e",
      expires_in: "7200",
    },
    answer: {
      result: {
        appKey: "8FB345B8693CCD0033A7D5C2D4E0F1A2",
        account: "fleet1",
        accessToken: TOKEN,
        expiresIn: 7200,
        refreshToken: "3c59dc048e8850243be8079a5c74d079f2b4c1a7d9e0c3b5a6f8e1d2c3b4a596",
        time: "2026-11-26 08:00:00",
      },
    },
  },
  {
    name: "jimi.oauth.token.refresh",
    description:
      "A new token pair for a refresh token (valid until an hour after its access token expires; used once, the old pair ends).",
    params: { refresh_token: "from token.get or an earlier refresh", expires_in: "60-7200" },
    example: {
      refresh_token: "3c59dc048e8850243be8079a5c74d079f2b4c1a7d9e0c3b5a6f8e1d2c3b4a596",
      expires_in: "7200",
    },
    answer: { result: { accessToken: "…", refreshToken: "…", expiresIn: 7200 } },
  },
  {
    name: "jimi.user.child.list",
    description: "The direct sub-accounts of an account (the caller's own when target is absent).",
    params: { target: "optional: login name of an account of the caller's subtree" },
    example: {},
    answer: {
      result: [{
        account: "customer7",
        name: "Customer 7",
        type: 12,
        phone: "",
        email: "ops@example.com",
        companyName: "",
        contact: "",
        language: "en",
        remark: "",
        expiration: "",
        createTime: "2026-11-01 08:00:00",
        enabledFlag: 1,
      }],
    },
  },
  {
    name: "jimi.user.child.create",
    description:
      "Creates a sub-account with the console's rules (manage scope and the manageAccounts permission). type: 8 distributor, 9 enterprise, 11 sales, 12 end user.",
    params: {
      account: "login name (unique)",
      password: "the password itself (the console's strength rules)",
      type: "8 | 9 | 11 | 12",
      target: "optional: parent account's login name (default: the caller)",
      name: "optional: display name (default: the login)",
      phone: "optional",
      email: "optional",
      company_name: "optional",
      contact: "optional",
      remark: "optional",
      language: "optional: en | zh",
      expiration: "optional: yyyy-MM-dd, not after the parent's",
    },
    example: { account: "customer8", password: "Passw0rd88", type: "12", name: "Customer 8" },
    answer: { result: { account: "customer8" } },
  },
  {
    name: "jimi.user.child.update",
    description: "Edits a sub-account's profile fields (manage).",
    params: {
      account: "login name",
      name: "optional",
      phone: "optional",
      email: "optional",
      company_name: "optional",
      contact: "optional",
      remark: "optional",
      language: "optional",
      expiration: "optional: yyyy-MM-dd; empty for none",
    },
    example: { account: "customer8", name: "Customer Eight" },
    answer: { result: null },
  },
  {
    name: "jimi.user.child.move",
    description:
      "Moves sub-accounts under another account of the subtree (manage; the console's transfer rules).",
    params: {
      accounts: "comma-separated login names, at most 100",
      target: "login name of the new parent",
    },
    example: { accounts: "customer8", target: "dealer2" },
    answer: { result: null },
  },
  {
    name: "jimi.user.child.del",
    description:
      "Deletes a sub-account (manage): refused while it has sub-accounts, devices or a balance (1100).",
    params: { account: "login name" },
    example: { account: "customer8" },
    answer: { result: null },
  },
];

export const REFERENCE: MethodReference[] = [...FRAME_REFERENCE, ...METHOD_REFERENCE];

/** The sample key of the page's examples. */
export const SAMPLE = {
  appKey: "8FB345B8693CCD0033A7D5C2D4E0F1A2",
  secret: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
  timestamp: "2026-11-26 08:00:00",
};

/** An example call: every parameter, the sorted list, the text hashed, the sign, curl. */
export function exampleCall(m: MethodReference, base: string) {
  const params: Record<string, string> = {
    method: m.name,
    timestamp: SAMPLE.timestamp,
    app_key: SAMPLE.appKey,
    sign_method: "md5",
    v: "1.0",
    format: "json",
    ...(m.name.startsWith("jimi.oauth.") ? {} : { access_token: TOKEN }),
    ...m.example,
  };
  const sorted = Object.keys(params).filter((k) => params[k] !== "").sort()
    .map((k) => [k, params[k]] as const);
  const text = signText(params, SAMPLE.secret);
  const sign = signParams(params, SAMPLE.secret);
  const all = { ...params, sign };
  const curl = [
    `curl -X POST '${base}/route/rest'`,
    ...Object.entries(all).map(([k, v]) =>
      `  --data-urlencode '${k}=${v.replaceAll("'", "'\\''")}'`
    ),
  ].join(" \\\n");
  return { sorted, text, sign, curl };
}
