/**
 * The fleet API of drivers and vehicles (issue 19): the enterprise-only rule (a distributor,
 * a sales account and an end user are refused with the spec's message; a sibling enterprise
 * sees nothing; an administrator sees everything) and every validation rule of spec business
 * §5 Fleet, through the real app on a real KV file.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { testApp } from "../../tests/helpers/harness.ts";
import { addAccount, assertCode, assertOk, PASSWORD, whoAmI } from "../accounts/test_support.ts";

const F = "/v3/new/fleet";
const IMEI_A = "359710049320017";
const IMEI_A2 = "359710049320025";
const IMEI_B = "359710049320033";
const VIN = "1M8GDM9AXKP042788"; // a valid check digit

async function fixture() {
  const t = await testApp();
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  const dist = await addAccount(t, admin, { account: "fdist", accountType: 8, parentId: adminId });
  const entA = await addAccount(t, admin, { account: "fentA", accountType: 9, parentId: dist });
  const subA = await addAccount(t, admin, { account: "fsubA", accountType: 9, parentId: entA });
  const userA = await addAccount(t, admin, { account: "fuserA", accountType: 12, parentId: entA });
  const entB = await addAccount(t, admin, { account: "fentB", accountType: 9, parentId: dist });
  const sales = await addAccount(t, admin, { account: "fsales", accountType: 11, parentId: dist });
  for (const [userId, imeis] of [[entA, [IMEI_A]], [subA, [IMEI_A2]], [entB, [IMEI_B]]] as const) {
    assertOk(
      await t.call("/v3/new/newEquipment/importEquipment", {
        userId,
        mcType: "GT06N",
        imeis: [...imeis],
      }, admin),
    );
  }
  const tokens = {
    admin,
    dist: await t.login("fdist", PASSWORD),
    entA: await t.login("fentA", PASSWORD),
    subA: await t.login("fsubA", PASSWORD),
    userA: await t.login("fuserA", PASSWORD),
    entB: await t.login("fentB", PASSWORD),
    sales: await t.login("fsales", PASSWORD),
  };
  return { t, tokens, ids: { adminId, dist, entA, subA, userA, entB, sales } };
}

const driver = (over: Record<string, unknown> = {}) => ({
  name: "Li Wei",
  driverNo: "D-001",
  licenseNo: "440301199001011234",
  phone: "+86-13800000000",
  rfidCardNo: "CARD0001",
  registerDate: "2024-01-10",
  expiredDate: "2030-01-09",
  maxSpeed: 120,
  ...over,
});

Deno.test("fleet: only enterprises and administrators; a sibling enterprise sees nothing", async () => {
  const { t, tokens, ids } = await fixture();
  try {
    // Refused alike, on reads and writes, with the spec's message and HTTP 200.
    for (const who of ["dist", "sales", "userA"] as const) {
      for (
        const [path, body] of [
          [`${F}/driver/list`, {}],
          [`${F}/driver/add`, driver()],
          [`${F}/vehicle/list`, {}],
          [`${F}/vehicle/add`, { plate: "X1" }],
        ] as const
      ) {
        const r = await t.call(path, body, tokens[who]);
        assertCode(r, "enterpriseFeatureDenied");
        assert.match(r.json.msg, /enterprise users.*superior/i, `${who} ${path}`);
      }
    }
    const zh = await t.app.request(`${F}/driver/list`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${tokens.dist}`,
        "x-locale": "zh",
      },
      body: "{}",
    });
    assert.match((await zh.json()).msg, /企业用户/);

    const a = await t.call(`${F}/driver/add`, driver(), tokens.entA);
    assertOk(a);
    const sub = await t.call(
      `${F}/driver/add`,
      driver({ name: "Sub", rfidCardNo: "CARD0002" }),
      tokens.subA,
    );
    assertOk(sub);
    // entA sees its own and its sub-account's; subA only its own; entB nothing.
    const listA = await t.call(`${F}/driver/list`, {}, tokens.entA);
    assert.equal(listA.json.data.total, 2);
    assert.equal((await t.call(`${F}/driver/list`, {}, tokens.subA)).json.data.total, 1);
    assert.deepEqual((await t.call(`${F}/driver/list`, {}, tokens.entB)).json.data, {
      total: 0,
      list: [],
    });
    // The sibling's attempts on entA's driver answer like an unknown id and change nothing.
    const id = a.json.data.id;
    assertCode(await t.call(`${F}/driver/update`, { id, name: "X" }, tokens.entB), "dataNotExists");
    assertCode(await t.call(`${F}/driver/delete`, { ids: [id] }, tokens.entB), "dataNotExists");
    assertCode(
      await t.call(`${F}/driver/update`, { id: crypto.randomUUID(), name: "X" }, tokens.entB),
      "dataNotExists",
    );
    assertCode(
      await t.call(`${F}/driver/add`, driver({ userId: ids.entA, rfidCardNo: "" }), tokens.entB),
      "permissionDenied",
    );
    assert.equal(
      (await t.call(`${F}/driver/list`, {}, tokens.entA)).json.data.list
        .find((d: { id: string }) => d.id === id).name,
      "Li Wei",
    );
    // A vehicle cannot bind a sibling's device.
    assertCode(
      await t.call(`${F}/vehicle/add`, { plate: "B-1", imei: IMEI_A }, tokens.entB),
      "deviceNoPermission",
    );
    // The administrator sees every enterprise's drivers.
    assertOk(await t.call(`${F}/driver/add`, driver({ rfidCardNo: "" }), tokens.entB));
    assert.equal((await t.call(`${F}/driver/list`, {}, tokens.admin)).json.data.total, 3);
  } finally {
    await t.close();
  }
});

Deno.test("fleet: driver validation rules", async () => {
  const { t, tokens } = await fixture();
  const tok = tokens.entA;
  const bad = async (body: Record<string, unknown>, field: string) => {
    const r = await t.call(`${F}/driver/add`, driver(body), tok);
    assertCode(r, "illegalParameter");
    assert.equal(r.json.data.field, field, JSON.stringify(r.json));
  };
  try {
    await bad({ name: "" }, "name");
    await bad({ name: "x".repeat(21) }, "name");
    assertOk(
      await t.call(`${F}/driver/add`, driver({ name: "x".repeat(20), rfidCardNo: "" }), tok),
    );
    await bad({ phone: "138 0000" }, "phone");
    await bad({ phone: "abc" }, "phone");
    await bad({ registerDate: "2024-02-30" }, "registerDate");
    await bad({ expiredDate: "2030/01/01" }, "expiredDate");
    await bad({ maxSpeed: 201 }, "maxSpeed");
    await bad({ maxSpeed: -1 }, "maxSpeed");
    await bad({ unknownField: 1 }, "unknownField");
    assertCode(
      await t.call(`${F}/driver/add`, driver({ expiredDate: "2024-01-09" }), tok),
      "driverExpiryBeforeRegister",
    );
    assertOk(await t.call(`${F}/driver/add`, driver({ maxSpeed: 200 }), tok));
    // The card is unique in the enterprise tree (case-insensitively), across sub-accounts...
    const dup = await t.call(`${F}/driver/add`, driver({ rfidCardNo: "card0001" }), tokens.subA);
    assertCode(dup, "rfidCardInUse");
    assert.match(dup.json.msg, /card0001/);
    // ...but another enterprise may use the same number.
    assertOk(await t.call(`${F}/driver/add`, driver(), tokens.entB));
    // Update: the same rules, and a freed card can be taken.
    const list = (await t.call(`${F}/driver/list`, { keyword: "CARD0001" }, tok)).json.data;
    assert.equal(list.total, 1);
    const id = list.list[0].id;
    assertCode(
      await t.call(`${F}/driver/update`, { id, expiredDate: "2020-01-01" }, tok),
      "driverExpiryBeforeRegister",
    );
    assertOk(await t.call(`${F}/driver/update`, { id, rfidCardNo: "CARD0009" }, tok));
    assertOk(await t.call(`${F}/driver/add`, driver({ rfidCardNo: "CARD0001" }), tokens.subA));
    // Licence state filter: expired and expiring soon.
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    assertOk(
      await t.call(`${F}/driver/add`, driver({ rfidCardNo: "S1", expiredDate: soon }), tok),
    );
    assertOk(
      await t.call(
        `${F}/driver/add`,
        driver({ rfidCardNo: "E1", registerDate: "2020-01-01", expiredDate: "2021-01-01" }),
        tok,
      ),
    );
    const state = async (licenceState: string) =>
      (await t.call(`${F}/driver/list`, { licenceState }, tok)).json.data.total;
    assert.equal(await state("expiringSoon"), 1);
    assert.equal(await state("expired"), 1);
    // Paging: 12 drivers, the second page of 10 holds 2.
    for (let i = 0; i < 7; i++) {
      assertOk(await t.call(`${F}/driver/add`, driver({ name: `P${i}`, rfidCardNo: "" }), tok));
    }
    const page = await t.call(`${F}/driver/list`, { pageNum: 2, pageSize: 10 }, tok);
    assert.equal(page.json.data.total, 12);
    assert.equal(page.json.data.list.length, 2);
    assertCode(await t.call(`${F}/driver/list`, { pageSize: 7 }, tok), "illegalParameter");
    // Delete frees the card.
    assertOk(await t.call(`${F}/driver/delete`, { ids: [id] }, tok));
    assertOk(await t.call(`${F}/driver/add`, driver({ rfidCardNo: "CARD0009" }), tok));
  } finally {
    await t.close();
  }
});

Deno.test("fleet: vehicle validation rules, one vehicle per device, driver assignment", async () => {
  const { t, tokens } = await fixture();
  const tok = tokens.entA;
  const add = (body: Record<string, unknown>) => t.call(`${F}/vehicle/add`, body, tok);
  try {
    const v = await add({
      plate: "粤B12345",
      imei: IMEI_A,
      status: "using",
      chassis: VIN,
      insuranceEffective: "2026-01-01",
      insuranceExpire: "2027-01-01",
      productionYear: 2022,
      fuelType: "diesel",
      seats: 5,
      wheels: 4,
      tonnage: 1.5,
      maxSpeed: 120,
    });
    assertOk(v);
    assert.equal(typeof v.json.data.id, "string");
    // A second vehicle on the same device is refused; a sub-account's device can be bound.
    assertCode(await add({ plate: "粤B2", imei: IMEI_A }), "vehicleDeviceBound");
    assertOk(await add({ plate: "粤B3", imei: IMEI_A2, status: "rentOut" }));
    // Validation.
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await add({ plate: "P", ...body });
      assertCode(r, "illegalParameter");
      assert.equal(r.json.data.field, field, JSON.stringify(r.json));
    };
    await bad({ plate: "" }, "plate");
    await bad({ status: "parked" }, "status");
    await bad({ imei: "123" }, "imei");
    await bad({ maxSpeed: 250 }, "maxSpeed");
    await bad({ insuranceExpire: "2027-13-01" }, "insuranceExpire");
    await bad({ productionYear: 1800 }, "productionYear");
    await bad({ fuelType: "coal" }, "fuelType");
    assertCode(
      await add({ plate: "P", insuranceEffective: "2027-01-02", insuranceExpire: "2027-01-01" }),
      "insuranceExpireBeforeEffective",
    );
    // VIN: length, letters and check digit warn; force saves anyway.
    for (
      const [chassis, problem] of [
        ["1M8GDM9AXKP04278", "length"],
        ["1M8GDM9AXKP04278O", "letters"],
        ["1M8GDM9A1KP042788", "checkDigit"],
      ]
    ) {
      const r = await add({ plate: "V", chassis });
      assertCode(r, "vinSuspicious");
      assert.equal(r.json.data.vinWarning, problem);
    }
    assertOk(await add({ plate: "V", chassis: "1M8GDM9A1KP042788", force: true }));
    // List: status filter and the insurance state.
    const using = await t.call(`${F}/vehicle/list`, { status: "using" }, tok);
    assert.equal(using.json.data.total, 1);
    assert.equal(using.json.data.list[0].insuranceState, "valid");
    // Assign a driver; the vehicle list names it; a sibling's driver is unknown.
    const d = await t.call(`${F}/driver/add`, driver(), tok);
    assertOk(
      await t.call(
        `${F}/vehicle/assign`,
        { vehicleId: v.json.data.id, driverId: d.json.data.id },
        tok,
      ),
    );
    const listed = (await t.call(`${F}/vehicle/list`, { keyword: "粤B12345" }, tok)).json.data;
    assert.equal(listed.list[0].driverName, "Li Wei");
    const dB = await t.call(`${F}/driver/add`, driver(), tokens.entB);
    assertCode(
      await t.call(
        `${F}/vehicle/assign`,
        { vehicleId: v.json.data.id, driverId: dB.json.data.id },
        tok,
      ),
      "dataNotExists",
    );
    // Unbinding frees the device for another vehicle.
    assertOk(await t.call(`${F}/vehicle/update`, { id: v.json.data.id, imei: "" }, tok));
    assertOk(await add({ plate: "粤B4", imei: IMEI_A }));
  } finally {
    await t.close();
  }
});

/** A multipart call as the browser makes it (Bearer token; the harness's `call` is JSON only). */
async function form(
  t: Awaited<ReturnType<typeof testApp>>,
  path: string,
  token: string,
  body: FormData,
) {
  const res = await t.app.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  return { status: res.status, json: await res.json() };
}

const PNG = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  0x0d,
  0x49,
  0x48,
  0x44,
  0x52,
]);

Deno.test("fleet: driver photo (jpg/png by content, under 2 MB), xlsx export and import", async () => {
  const { t, tokens } = await fixture();
  const tok = tokens.entA;
  try {
    const id = (await t.call(`${F}/driver/add`, driver(), tok)).json.data.id;
    const photo = (bytes: Uint8Array<ArrayBuffer>, name: string) => {
      const f = new FormData();
      f.set("id", id);
      f.set("file", new File([bytes], name, { type: "image/png" }));
      return form(t, `${F}/driver/avatar`, tok, f);
    };
    // A text file named .png is refused by its content; 2 MB is one byte too many.
    assertCode(
      await photo(new TextEncoder().encode("not an image"), "face.png"),
      "fileTypeInvalid",
    );
    const big = new Uint8Array(2048 * 1024);
    big.set(PNG);
    assertCode(await photo(big, "big.png"), "fileTooLarge");
    const ok = await photo(PNG, "face.jpg");
    assertOk(ok);
    assert.match(ok.json.data.avatar, /^[0-9a-f]{32}\.png$/);
    const served = await t.app.request(`${F}/driver/avatar/${id}`, {
      headers: { authorization: `Bearer ${tok}` },
    });
    assert.equal(served.headers.get("content-type"), "image/png");
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), PNG);
    // The sibling enterprise gets nothing.
    const sibling = await t.app.request(`${F}/driver/avatar/${id}`, {
      headers: { authorization: `Bearer ${tokens.entB}` },
    });
    assert.equal(sibling.status, 404);
    await sibling.body?.cancel();

    // Export: the header row and the driver; import: good rows added, bad rows named.
    const exported = await t.app.request(`${F}/driver/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${tok}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.match(exported.headers.get("content-type") ?? "", /spreadsheetml/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await exported.arrayBuffer());
    const sheet = wb.worksheets[0];
    assert.equal(sheet.getRow(1).getCell(1).value, "Name");
    assert.equal(sheet.getRow(2).getCell(1).value, "Li Wei");
    assert.equal(sheet.getRow(2).getCell(5).value, "CARD0001");

    const upload = new ExcelJS.Workbook();
    const ws = upload.addWorksheet("Drivers");
    ws.addRow([
      "Name",
      "Driver no",
      "Licence no",
      "Phone",
      "RFID card no",
      "Register date",
      "Licence expiry",
    ]);
    ws.addRow(["Sun Li", "D-9", "L-9", "+86-1", "CARD0100", "2024-01-01", "2029-01-01"]);
    ws.addRow(["Bad Phone", "", "", "12 34"]);
    ws.addRow(["Dup Card", "", "", "", "CARD0001"]);
    ws.addRow(["Bad Dates", "", "", "", "", "2024-05-01", "2024-04-01"]);
    const f = new FormData();
    f.set(
      "file",
      new File([await upload.xlsx.writeBuffer()], "drivers.xlsx", {
        type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      }),
    );
    const imported = await form(t, `${F}/driver/import`, tok, f);
    assertOk(imported);
    const rows = imported.json.data as { row: number; ok: boolean; reason?: string }[];
    assert.deepEqual(rows.map((r) => [r.row, r.ok]), [[2, true], [3, false], [4, false], [
      5,
      false,
    ]]);
    assert.match(rows[1].reason!, /Phone/);
    assert.match(rows[2].reason!, /CARD0001/);
    assert.match(rows[3].reason!, /expiry date cannot be before/);
    const list = await t.call(`${F}/driver/list`, { keyword: "Sun Li" }, tok);
    assert.equal(list.json.data.list[0].rfidCardNo, "CARD0100");
    // A distributor's import is refused as a whole.
    assertCode(await form(t, `${F}/driver/import`, tokens.dist, f), "enterpriseFeatureDenied");
  } finally {
    await t.close();
  }
});

Deno.test("fleet: the board and the RFID list are enterprise-only and scoped", async () => {
  const { t, tokens } = await fixture();
  try {
    for (const who of ["dist", "sales", "userA"] as const) {
      assertCode(await t.call(`${F}/board`, {}, tokens[who]), "enterpriseFeatureDenied");
      assertCode(
        await t.call(
          `${F}/rfid/list`,
          { startTime: "2026-01-01", endTime: "2026-01-02" },
          tokens[who],
        ),
        "enterpriseFeatureDenied",
      );
    }
    assertOk(
      await t.call(`${F}/vehicle/add`, { plate: "A1", status: "using", imei: IMEI_A }, tokens.entA),
    );
    assertOk(await t.call(`${F}/vehicle/add`, { plate: "A2", status: "rentOut" }, tokens.subA));
    const board = (await t.call(`${F}/board`, {}, tokens.entA)).json.data;
    assert.deepEqual(board.byStatus, { using: 1, vacant: 0, rentOut: 1 });
    assert.deepEqual(board.today.map((v: { plate: string }) => v.plate), ["A1"]);
    // The reminder and route modules fill their tiles: none due, no deviation today.
    assert.deepEqual(board.reminders, { due: 0, overdue: 0 });
    assert.equal(board.deviationsToday, 0);
    const sibling = (await t.call(`${F}/board`, {}, tokens.entB)).json.data;
    assert.equal(sibling.vehicles, 0);
    // RFID list: a range whose end is before its start is refused.
    assertCode(
      await t.call(
        `${F}/rfid/list`,
        { startTime: "2026-01-02", endTime: "2026-01-01" },
        tokens.entA,
      ),
      "illegalParameter",
    );
    assertCode(
      await t.call(
        `${F}/rfid/list`,
        { startTime: "01/01/2026", endTime: "2026-01-01" },
        tokens.entA,
      ),
      "illegalParameter",
    );
  } finally {
    await t.close();
  }
});
