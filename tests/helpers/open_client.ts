/**
 * A Tracksolid Open API client as its public documents describe one (not from our code):
 * common parameters; parameters sorted by name, empty values left out, name+value
 * concatenated, the app secret at both ends, MD5, upper-case hex; form or JSON posts to
 * `/route/rest`; `{code, message, result, data}` answers.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

export const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");
/** UTC `yyyy-MM-dd HH:mm:ss`, the Open API's time form. */
export const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

/** An answer: payloads are read as the public examples show them. */
// deno-lint-ignore no-explicit-any
export type OpenReply = { code: number; message: string; result?: any; data?: any };

/** A client as the public documents describe one: common parameters, MD5 signature. */
export class OpenClient {
  accessToken = "";
  constructor(readonly url: string, readonly appKey: string, readonly secret: string) {}

  /** Sorted by name, empty values left out, name+value, secret at both ends, MD5, upper hex. */
  sign(params: Record<string, string>): string {
    const names = Object.keys(params).filter((k) => k !== "sign" && params[k] !== "").sort();
    return md5(this.secret + names.map((k) => k + params[k]).join("") + this.secret)
      .toUpperCase();
  }

  params(method: string, own: Record<string, string>, at = Date.now()) {
    const p: Record<string, string> = {
      method,
      timestamp: utc(at),
      app_key: this.appKey,
      sign_method: "md5",
      v: "1.0",
      format: "json",
      ...(this.accessToken ? { access_token: this.accessToken } : {}),
      ...own,
    };
    p.sign = this.sign(p);
    return p;
  }

  async post(params: Record<string, string>, json = false): Promise<OpenReply> {
    const res = await fetch(`${this.url}/route/rest`, {
      method: "POST",
      headers: {
        "content-type": json
          ? "application/json"
          : "application/x-www-form-urlencoded; charset=utf-8",
      },
      body: json ? JSON.stringify(params) : new URLSearchParams(params),
    });
    assert.equal(res.status, 200);
    return await res.json() as OpenReply;
  }

  call(method: string, own: Record<string, string> = {}) {
    return this.post(this.params(method, own));
  }

  async token(user: string, password: string) {
    const r = await this.call("jimi.oauth.token.get", {
      user_id: user,
      user_pwd_md5: md5(password),
      expires_in: "7200",
    });
    if (r.code === 0) this.accessToken = r.result.accessToken;
    return r;
  }
}
