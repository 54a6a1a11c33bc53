/** A tiny API client for tests against a real server: Bearer token, `{code,msg,data}` unwrapped. */
export class ApiClient {
  constructor(readonly base: string, private token = "") {}

  static async login(base: string, account: string, password: string): Promise<ApiClient> {
    const c = new ApiClient(base);
    const r = await c.raw("/v3/new/account/login", { account, password });
    if (r.code !== 10000) throw new Error(`login failed: ${JSON.stringify(r)}`);
    c.token = r.data.token;
    return c;
  }

  // deno-lint-ignore no-explicit-any
  async raw(path: string, body?: unknown): Promise<{ code: number; msg: string; data: any }> {
    const res = await fetch(`${this.base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        "content-type": "application/json",
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await res.json();
  }

  /** Calls and returns data; throws on any refusal. */
  // deno-lint-ignore no-explicit-any
  async call(path: string, body?: unknown): Promise<any> {
    const r = await this.raw(path, body);
    if (r.code !== 10000) throw new Error(`${path}: ${r.code} ${r.msg}`);
    return r.data;
  }
}
