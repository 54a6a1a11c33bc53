/**
 * HTTP helpers for the device e2e test and bench:devices against a real server process:
 * JSON calls that must succeed, and an administrator-built account chain.
 */

/** POSTs JSON and returns `data`; any refusal throws with the path and the envelope. */
export async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (json.code !== 10000) throw new Error(`${path}: ${JSON.stringify(json).slice(0, 300)}`);
  return json.data;
}

export async function login(base: string, account: string, password: string): Promise<string> {
  return (await post(base, "/v3/new/account/login", { account, password })).token;
}

/** The administrator's token and an `add(account, parentId, type)` that creates accounts. */
export async function asAdmin(base: string, adminPassword: string, password: string) {
  const token = await login(base, "admin", adminPassword);
  const me = await (await fetch(`${base}/v3/new/account/current`, {
    headers: { authorization: `Bearer ${token}` },
  })).json();
  const add = async (account: string, nickName: string, parentId: string, accountType: number) =>
    (await post(base, "/v3/new/account/add", {
      account,
      nickName,
      password,
      accountType,
      parentId,
    }, token)).id as string;
  return { token, adminId: me.data.id as string, add };
}
