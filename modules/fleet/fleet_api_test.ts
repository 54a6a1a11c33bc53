/**
 * The fleet API of drivers and vehicles (issue 19): the enterprise-only rule (a distributor,
 * a sales account and an end user are refused with the spec's message; a sibling enterprise
 * sees nothing; an administrator sees everything) and every validation rule of spec business
 * §5 Fleet, through the real app on a real KV file.
 */
import assert from "node:assert/strict";
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
