/**
 * Help and logs through a real server process: the business log of a device transfer and an
 * account move (who, target, detail, IP, secrets masked, subtree isolation, filters, export),
 * help documents uploaded by the administrator and downloaded by a sub-account, and
 * announcements with the pop-up window check.
 */
import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { CATALOGUE } from "../../lib/errors.ts";
import { startServer } from "../../tests/helpers/server.ts";
import { ADMIN_PASSWORD, type TestApp } from "../../tests/helpers/harness.ts";
import { buildTree, PASSWORD } from "../accounts/test_support.ts";

const IMEI = "359710049420015";
const EQ = "/v3/new/newEquipment";
// deno-lint-ignore no-explicit-any -- answers of many shapes, checked field by field
type Json = { code: number; msg: string; data: any };

/** The calls buildTree makes, over HTTP to the real server. */
function client(url: string) {
  async function call(path: string, body?: unknown, token?: string, method?: string) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(url + path, {
      method: method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.headers.get("content-type")?.includes("json") ? await res.json() : null;
    return { status: res.status, json, res };
  }
  async function login(account: string, password: string) {
    const r = await call("/v3/new/account/login", { account, password });
    assert.equal(r.json?.code, 10000, JSON.stringify(r.json));
    return r.json.data.token as string;
  }
  return { call, login };
}

const ok = (r: { json: Json | null }) => {
  assert.equal(r.json?.code, CATALOGUE.success, JSON.stringify(r.json));
  return r.json!.data;
};

Deno.test("help API through a real server", async (s) => {
  const server = await startServer({ ADMIN_PASSWORD });
  try {
    const api = client(server.url);
    const tree = await buildTree(api as unknown as TestApp);
    const { ids, tokens } = tree;
    const userA = await api.login("userA", PASSWORD);
    await s.step("business log: a device transfer and an account move", async () => {
      await businessLog(api, ids, { ...tokens, userA });
    });
    // The reset password of the business log step ended userA's sessions.
    const userA2 = await api.login("userA", "Secret123x");
    await s.step(
      "help documents: uploaded by the administrator, read by a sub-account",
      async () => {
        await manuals(server.url, api, tokens.admin, tokens.distA, userA2);
      },
    );
    await s.step("announcements and the pop-up window check", async () => {
      await announcements(api, { ...tokens, userA: userA2 });
    });
  } finally {
    await server.stop();
  }
});

type Api = ReturnType<typeof client>;
type Tokens = Record<"admin" | "distA" | "distB" | "entA" | "userA", string>;

async function logOf(api: Api, token: string, more: Record<string, unknown> = {}) {
  return ok(
    await api.call("/v3/new/businessLog/list", { pageNum: 1, pageSize: 100, ...more }, token),
  ) as {
    total: number;
    list: {
      time: string;
      account: string;
      action: string;
      target: string;
      detail: string;
      ip: string;
    }[];
  };
}

async function businessLog(api: Api, ids: Record<string, string>, tokens: Tokens) {
  ok(
    await api.call(
      `${EQ}/importEquipment`,
      { userId: ids.entA, mcType: "GT06N", imeis: [IMEI] },
      tokens.distA,
    ),
  );
  ok(
    await api.call(
      `${EQ}/transferEquipment`,
      { imeis: [IMEI], targetUserId: ids.userA },
      tokens.distA,
    ),
  );
  ok(
    await api.call(
      "/v3/new/account/move",
      { ids: [ids.spareA], targetId: ids.distA },
      tokens.distA,
    ),
  );
  ok(
    await api.call("/v3/new/account/resetPassword", {
      id: ids.userA,
      password: "Secret123x",
      confirmPassword: "Secret123x",
    }, tokens.distA),
  );
  ok(await api.call(`${EQ}/addGroup`, { userId: ids.distB, name: "B only" }, tokens.distB));
  // A refused change and a read are not business operations.
  await api.call(
    `${EQ}/transferEquipment`,
    { imeis: [IMEI], targetUserId: ids.distB },
    tokens.distA,
  );
  ok(
    await api.call(
      `${EQ}/queryEquipmentList`,
      { userId: ids.entA, pageNum: 1, pageSize: 10 },
      tokens.distA,
    ),
  );

  const a = await logOf(api, tokens.distA);
  const transfer = a.list.find((e) => e.action.endsWith("newEquipment/transferEquipment"));
  assert.ok(transfer, JSON.stringify(a.list));
  assert.equal(transfer.account, "distA");
  assert.equal(transfer.target, `${IMEI} → userA`);
  assert.equal(transfer.ip, "127.0.0.1");
  assert.match(transfer.action, /^Devices · /);
  assert.ok(Date.now() - Date.parse(transfer.time) < 120_000);
  const move = a.list.find((e) => e.action.endsWith("account/move"));
  assert.ok(move);
  assert.equal(move.target, "spareA → distA");
  const reset = a.list.find((e) => e.action.endsWith("account/resetPassword"))!;
  assert.equal(reset.target, "userA");
  assert.ok(!reset.detail.includes("Secret123x") && reset.detail.includes("***"), reset.detail);
  assert.equal(
    a.list.filter((e) => e.action.endsWith("transferEquipment")).length,
    1,
    "refusals are not logged",
  );
  assert.ok(!a.list.some((e) => e.action.includes("queryEquipmentList")), "reads are not logged");
  // newest first
  assert.deepEqual(a.list.map((e) => e.time), a.list.map((e) => e.time).sort().reverse());

  // Subtree isolation: a sibling never appears, a descendant does not see its ancestor's.
  const b = await logOf(api, tokens.distB);
  assert.ok(b.list.every((e) => e.account === "distB"), JSON.stringify(b.list));
  assert.ok(b.list.some((e) => e.action.endsWith("addGroup")));
  assert.ok(!a.list.some((e) => e.account === "distB"));
  assert.ok((await logOf(api, tokens.entA)).list.every((e) => e.account !== "distA"));
  const admin = await logOf(api, tokens.admin);
  assert.ok(
    admin.list.some((e) => e.account === "distA") && admin.list.some((e) => e.account === "distB"),
  );

  // Filters: keyword, time range, paging; Chinese action names.
  assert.equal((await logOf(api, tokens.distA, { keyword: "spareA" })).total, 1);
  assert.equal((await logOf(api, tokens.distA, { keyword: IMEI })).total, 2);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  assert.equal((await logOf(api, tokens.distA, { startTime: future })).total, 0);
  const paged = ok(
    await api.call("/v3/new/businessLog/list", { pageNum: 2, pageSize: 10 }, tokens.admin),
  );
  assert.equal(paged.total, admin.total);
  const zh = await api.call("/v3/new/businessLog/list", {
    pageNum: 1,
    pageSize: 10,
    keyword: "transferEquipment",
  }, tokens.distA);
  assert.ok(zh.json.data.list[0].action.startsWith("Devices"));
  const refused = await api.call("/v3/new/businessLog/list", {
    pageNum: 1,
    pageSize: 10,
    startTime: future,
    endTime: new Date().toISOString(),
  }, tokens.distA);
  assert.equal(refused.json.code, CATALOGUE.startAfterEnd);

  const file = await api.call("/v3/new/businessLog/export", { keyword: "account/" }, tokens.distA);
  assert.equal(file.status, 200);
  assert.match(file.res.headers.get("content-disposition") ?? "", /business-log\.xlsx/);
  const bytes = new Uint8Array(await file.res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 2)], [0x50, 0x4b]);
}

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

async function uploadDoc(
  url: string,
  token: string,
  name: string,
  bytes: Uint8Array,
  kind = "manual",
) {
  const form = new FormData();
  form.set("kind", kind);
  form.set("file", new File([bytes as BlobPart], name));
  const res = await fetch(`${url}/v3/new/manual/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return await res.json() as Json;
}

async function manuals(url: string, api: Api, admin: string, distA: string, userA: string) {
  const manual = await uploadDoc(url, admin, "Manual 手册.pdf", PDF);
  assert.equal(manual.code, CATALOGUE.success, JSON.stringify(manual));
  const docx = zipSync({
    "[Content_Types].xml": new Uint8Array(10),
    "word/document.xml": new TextEncoder().encode("<w/>"),
  });
  const api1 = await uploadDoc(url, admin, "api.docx", docx, "api");
  assert.equal(api1.code, CATALOGUE.success, JSON.stringify(api1));
  // Checked by content: a text file named .pdf, a zip named .docx without a document, an exe.
  for (
    const [name, bytes] of [
      ["fake.pdf", new TextEncoder().encode("hello")],
      ["fake.docx", zipSync({ "a.txt": new Uint8Array(3) })],
      ["tool.exe", new Uint8Array([0x4d, 0x5a, 0, 0])],
      ["broken.zip", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])],
    ] as const
  ) {
    assert.equal((await uploadDoc(url, admin, name, bytes)).code, CATALOGUE.fileTypeInvalid, name);
  }
  assert.equal((await uploadDoc(url, distA, "m.pdf", PDF)).code, CATALOGUE.permissionDenied);
  const big = new Uint8Array(50 * 1024 * 1024 + 10);
  big.set(PDF);
  const tooBig = await uploadDoc(url, admin, "big.pdf", big);
  assert.ok(
    ([CATALOGUE.fileTooLarge, CATALOGUE.illegalParameter] as number[]).includes(tooBig.code),
    JSON.stringify(tooBig),
  );

  // A sub-account lists and downloads the manual, byte for byte.
  const list = ok(await api.call("/v3/new/manual/list", {}, userA)).list as {
    id: string;
    kind: string;
    title: string;
  }[];
  assert.deepEqual(list.map((d) => d.kind), ["manual", "api"]);
  assert.equal(list[0].title, "Manual 手册");
  const get = (id: string, inline = "") =>
    fetch(`${url}/v3/new/manual/download?id=${id}${inline}`, {
      headers: { authorization: `Bearer ${userA}` },
    });
  const res = await get(manual.data.id);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.match(
    res.headers.get("content-disposition")!,
    /^attachment; .*filename\*=UTF-8''Manual%20%E6%89%8B%E5%86%8C\.pdf/,
  );
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), PDF);
  const inline = await get(manual.data.id, "&inline=1");
  assert.match(inline.headers.get("content-disposition")!, /^inline;/);
  await inline.body?.cancel();
  const docRes = await get(api1.data.id);
  assert.deepEqual(new Uint8Array(await docRes.arrayBuffer()), docx);

  assert.equal(
    (await api.call("/v3/new/manual/delete", { id: manual.data.id }, distA)).json.code,
    CATALOGUE.permissionDenied,
  );
  ok(await api.call("/v3/new/manual/delete", { id: manual.data.id }, admin));
  const gone = await get(manual.data.id);
  assert.equal((await gone.json()).code, CATALOGUE.dataNotExists);
  // Uploads are business operations of the administrator.
  assert.ok((await logOf(api, admin, { keyword: "manual/upload" })).total >= 2);
}

async function announcements(api: Api, tokens: Tokens) {
  const now = Date.now();
  const post = (token: string, more: Record<string, unknown> = {}) =>
    api.call("/v3/new/announcement/add", {
      title: "Maintenance",
      body: "The platform is maintained on Sunday 02:00-03:00.",
      importance: "important",
      startTime: new Date(now - 60_000).toISOString(),
      endTime: new Date(now + 86_400_000).toISOString(),
      ...more,
    }, token);
  const posted = ok(await post(tokens.distA));
  ok(
    await post(tokens.distA, {
      title: "Later",
      importance: "normal",
      startTime: new Date(now + 3_600_000).toISOString(),
    }),
  );
  assert.equal((await post(tokens.userA)).json.code, CATALOGUE.endUserCannotCreate);
  assert.equal((await post(tokens.entA)).json.code, CATALOGUE.permissionDenied);
  assert.equal(
    (await post(tokens.distA, { body: "x".repeat(2001) })).json.code,
    CATALOGUE.illegalParameter,
  );
  assert.equal(
    (await post(tokens.distA, { endTime: new Date(now - 120_000).toISOString() })).json.code,
    CATALOGUE.startAfterEnd,
  );

  const check = (token: string, method = "GET") =>
    api.call(
      "/tsp2/tsp-asset/account/showWindow/",
      method === "GET" ? undefined : {},
      token,
      method,
    );
  const first = ok(await check(tokens.userA));
  assert.equal(first.show, true);
  assert.deepEqual(first.announcements.map((a: { id: string }) => a.id), [posted.id]);
  assert.equal(ok(await check(tokens.entA, "POST")).show, true);
  assert.equal(ok(await check(tokens.distB)).show, false, "a sibling subtree receives nothing");
  assert.equal(ok(await check(tokens.distA)).show, false, "the poster is not shown its own");
  const me = ok(await api.call("/v3/new/account/current", undefined, tokens.userA));
  assert.deepEqual(me.announcementList.map((a: { id: string }) => a.id), [posted.id]);

  // Seen once: userA no longer gets the pop-up, entA still does; the list keeps it.
  ok(await api.call("/v3/new/announcement/seen", { ids: [posted.id] }, tokens.userA));
  assert.equal(ok(await check(tokens.userA)).show, false);
  assert.equal(ok(await check(tokens.entA)).show, true);
  const list = ok(
    await api.call("/v3/new/announcement/list", { pageNum: 1, pageSize: 10 }, tokens.userA),
  );
  assert.equal(list.total, 1, "the upcoming one is not listed to receivers yet");
  assert.equal(list.list[0].seen, true);
  assert.equal(
    ok(await api.call("/v3/new/announcement/list", { pageNum: 1, pageSize: 10 }, tokens.distA))
      .total,
    2,
  );

  // Another subtree can neither delete nor mark it.
  assert.equal(
    (await api.call("/v3/new/announcement/delete", { id: posted.id }, tokens.distB)).json.code,
    CATALOGUE.dataNotExists,
  );
  ok(await api.call("/v3/new/announcement/delete", { id: posted.id }, tokens.distA));
  assert.equal(ok(await check(tokens.entA)).show, false);
}
