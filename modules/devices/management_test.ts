import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { testApp } from "../../tests/helpers/harness.ts";
import { asAdmin, type Call, code, ok, PASSWORD } from "./test_support.ts";
import { MAX_IMAGE_TASKS } from "./store.ts";

const EQ = "/v3/new/newEquipment";
const imeiOf = (n: number) => String(868120300000000 + n);

/**
 * admin → dist (8) → ent (9) → user (12); dist → sibling (12); admin → other (8, node 2);
 * dist's virtual accounts: vFull (updateFlag 1) and vRead (updateFlag 0); dist → noEdit
 * (updateDevFlag 0).
 */
async function setup() {
  const app = await testApp();
  const { admin, adminId, add } = await asAdmin(app);
  const dist = await add("mg_dist", adminId, 8);
  const ent = await add("mg_ent", dist, 9);
  const user = await add("mg_user", ent, 12);
  const sibling = await add("mg_sibling", dist, 12);
  const other = await add("mg_other", adminId, 8);
  const far = await add("mg_far", dist, 12, { nodeId: 2 });
  const noEdit = await add("mg_noedit", adminId, 8, { permissions: { updateDevFlag: 0 } });
  const tDist = await app.login("mg_dist", PASSWORD);
  const virt = async (account: string, updateFlag: 0 | 1) => {
    ok(
      await app.call("/v3/new/account/virtual/add", {
        account,
        nickName: account,
        password: PASSWORD,
        scope: { instructionsFlag: 1, updateFlag, videoFlag: 1 },
      }, tDist),
    );
    return await app.login(account, PASSWORD);
  };
  const tokens = {
    admin,
    dist: tDist,
    ent: await app.login("mg_ent", PASSWORD),
    other: await app.login("mg_other", PASSWORD),
    noEdit: await app.login("mg_noedit", PASSWORD),
    vFull: await virt("mg_vfull", 1),
    vRead: await virt("mg_vread", 0),
  };
  const importTo = async (userId: string, from: number, count: number, extra = {}) =>
    ok(
      await app.call(`${EQ}/importEquipment`, {
        userId,
        mcType: "GT06N",
        imeis: Array.from({ length: count }, (_, i) => imeiOf(from + i)),
        ...extra,
      }, admin),
    );
  return {
    app,
    ids: { adminId, dist, ent, user, sibling, other, far, noEdit },
    tokens,
    importTo,
  };
}

Deno.test("device management API", async (t) => {
  const { app, ids, tokens, importTo } = await setup();
  const call = app.call;
  try {
    await importTo(ids.dist, 1, 5); // 1-5 dist's own stock
    await importTo(ids.ent, 10, 3); // 10-12 ent
    await importTo(ids.user, 20, 2, { activationMode: "permission" }); // 20-21 awaiting
    await importTo(ids.sibling, 30, 1);
    await importTo(ids.other, 40, 1);
    await importTo(ids.far, 50, 1);

    await t.step("editing needs updateDevFlag, and updateFlag for virtual users", async () => {
      await importTo(ids.noEdit, 60, 1);
      const body = { imeis: [imeiOf(60)], enabled: false };
      code(await call(`${EQ}/enableEquipment`, body, tokens.noEdit), "permissionDenied");
      const own = { imeis: [imeiOf(1)], enabled: false };
      code(await call(`${EQ}/enableEquipment`, own, tokens.vRead), "permissionDenied");
      ok(await call(`${EQ}/enableEquipment`, own, tokens.vFull));
      // Reading stays allowed for the read-only virtual user.
      ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(1) }, tokens.vRead));
    });

    await t.step("disabling a device closes its live gateway connection", async () => {
      let closed = 0;
      app.services.connections.attach({
        imei: imeiOf(2),
        protocol: "gt06",
        remote: "test",
        connectedAt: Date.now(),
        heardAt: Date.now(),
        credentialed: false,
        send: () => Promise.resolve(),
        close: () => void closed++,
      });
      ok(await call(`${EQ}/enableEquipment`, { imeis: [imeiOf(2)], enabled: false }, tokens.dist));
      assert.equal(closed, 1);
      ok(await call(`${EQ}/enableEquipment`, { imeis: [imeiOf(2)], enabled: true }, tokens.dist));
      assert.equal(closed, 1, "enabling leaves connections alone");
    });

    await t.step("nothing outside the caller's subtree can be read or changed", async () => {
      code(
        await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(40) }, tokens.dist),
        "deviceNoPermission",
      );
      // A bulk action reports per device: the foreign one is refused, the own one changed.
      const mixed = ok(
        await call(
          `${EQ}/enableEquipment`,
          { imeis: [imeiOf(2), imeiOf(40)], enabled: false },
          tokens.dist,
        ),
      );
      assert.equal(mixed.done, 1);
      assert.deepEqual(
        mixed.results.map((r: { imei: string; ok: boolean; error: string | null }) => [
          r.imei,
          r.ok,
          r.error,
        ]),
        [[imeiOf(2), true, null], [imeiOf(40), false, "deviceNoPermission"]],
      );
      assert.equal(app.services.directory.get(imeiOf(40))?.enabled, true);
      ok(await call(`${EQ}/enableEquipment`, { imeis: [imeiOf(2)], enabled: true }, tokens.dist));
      code(
        await call(`${EQ}/follow`, { imeis: [imeiOf(40)], follow: true }, tokens.dist),
        "deviceNoPermission",
      );
      code(
        await call(`${EQ}/getStatistics`, { userId: ids.other }, tokens.dist),
        "permissionDenied",
      );
      const found = ok(
        await call(`${EQ}/globalSearchEquipment`, { keyword: "86812030000" }, tokens.dist),
      );
      assert.ok(found.list.every((d: { userId: string }) => d.userId !== ids.other));
      assert.equal(found.total, 5 + 3 + 2 + 1 + 1);
    });

    await t.step(
      "list filters: enabled, activation, expiry, follow, bound; statistics",
      async () => {
        const list = async (f: Record<string, unknown>) =>
          ok(
            await call(
              `${EQ}/queryEquipmentList`,
              { pageNum: 1, pageSize: 100, ...f },
              tokens.dist,
            ),
          );
        assert.deepEqual(
          (await list({ enabled: false })).list.map((d: { imei: string }) => d.imei),
          [imeiOf(1)],
        );
        assert.equal((await list({ activation: "awaitingPermission" })).total, 2);
        assert.equal((await list({ activation: "notActivatedAuto" })).total, 10);
        assert.equal((await list({ activation: "notActivated" })).total, 12);
        assert.equal((await list({ ownOnly: true })).total, 5);
        assert.equal((await list({ userId: ids.ent })).total, 5, "ent and its sub-account");
        ok(
          await call(`${EQ}/follow`, { imeis: [imeiOf(2), imeiOf(10)], follow: true }, tokens.dist),
        );
        const followed = await list({ followed: true });
        assert.deepEqual(followed.list.map((d: { imei: string }) => d.imei), [
          imeiOf(2),
          imeiOf(10),
        ]);
        assert.ok(followed.list.every((d: { followed: boolean }) => d.followed));
        // Another user's follow marks are its own.
        assert.equal(
          ok(
            await call(
              `${EQ}/queryEquipmentList`,
              { pageNum: 1, pageSize: 10, followed: true },
              tokens.ent,
            ),
          ).total,
          0,
        );
        // Expiry windows: give devices user expiries after activating them.
        for (const n of [10, 11, 12]) await activate(n);
        const inDays = (d: number) =>
          new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
        ok(
          await call(`${EQ}/updateUserExpiration`, {
            imeis: [imeiOf(10)],
            userExpiration: inDays(5),
          }, tokens.dist),
        );
        ok(
          await call(`${EQ}/updateUserExpiration`, {
            imeis: [imeiOf(11)],
            userExpiration: inDays(45),
          }, tokens.dist),
        );
        assert.equal((await list({ expiryWithin: 7 })).total, 1);
        assert.equal((await list({ expiryWithin: 30 })).total, 1);
        assert.equal((await list({ expiryWithin: 60 })).total, 2);
        assert.equal((await list({ activation: "expiring" })).total, 1);
        assert.equal((await list({ activation: "activated" })).total, 3);
        assert.equal((await list({ bound: true })).total, 0);
        const stats = ok(await call(`${EQ}/getStatistics`, {}, tokens.dist));
        assert.equal(stats.total, 12);
        assert.equal(stats.awaitingPermission, 2);
        assert.equal(stats.notActivated, 7);
        assert.equal(stats.expiring, 1);
        assert.equal(stats.activated, 2);
        assert.equal(stats.disabled, 1);
        assert.equal(stats.followed, 2);
        assert.equal(stats.online, 3);
        assert.equal((await list({ online: true })).total, 3);
        assert.equal((await list({ online: false })).total, 9);
      },
    );

    await t.step("a save applies only its own change onto the newest record", async () => {
      const stale = app.services.directory.get(imeiOf(5))!;
      assert.equal(stale.activationTime, null);
      await activate(5); // the gateway activates it after `stale` was read
      await app.services.devices.save([{ before: stale, after: { ...stale, enabled: false } }]);
      const now = await app.services.deviceStore.get(imeiOf(5));
      assert.ok(now?.activationTime, "activation kept");
      assert.equal(now?.enabled, false);
      assert.deepEqual(app.services.directory.get(imeiOf(5)), now);
    });

    await t.step("IMEI search needs 5 to 15 digits; names are found too", async () => {
      code(
        await call(`${EQ}/globalSearchEquipment`, { keyword: "1234" }, tokens.dist),
        "illegalParameter",
      );
      code(
        await call(`${EQ}/globalSearchEquipment`, { keyword: "1234567890123456" }, tokens.dist),
        "illegalParameter",
      );
      const byName = ok(
        await call(`${EQ}/globalSearchEquipment`, { keyword: imeiOf(3).slice(-6) }, tokens.dist),
      );
      assert.equal(byName.list[0].imei, imeiOf(3));
    });

    await t.step(
      "allow-activation: a device awaiting permission is activated only after it",
      async () => {
        await activate(20);
        let d = ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(20) }, tokens.dist)).basic;
        assert.equal(d.activationTime, null);
        assert.equal(d.activation, "awaitingPermission");
        code(
          await call(`${EQ}/allowActivation`, { imeis: [imeiOf(2)] }, tokens.dist),
          "activationNotAwaiting",
        );
        ok(await call(`${EQ}/allowActivation`, { imeis: [imeiOf(20)] }, tokens.dist));
        await activate(20);
        d = ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(20) }, tokens.dist)).basic;
        assert.ok(d.activationTime);
      },
    );

    await t.step("user expiry rules", async () => {
      const set = (n: number, date: string, token = tokens.dist) =>
        call(`${EQ}/updateUserExpiration`, { imeis: [imeiOf(n)], userExpiration: date }, token);
      code(await set(21, "2030-01-01"), "expiryInactiveDevice");
      await activate(1);
      code(await set(1, "2030-01-01"), "expiryOwnStock");
      code(await set(12, "2001-01-01"), "expiryBeforeActivation");
      // Beyond the platform expiry the administrator set.
      ok(
        await call(`${EQ}/updatePlatformExpiration`, {
          imeis: [imeiOf(12)],
          expiration: "2030-06-30",
        }, tokens.admin),
      );
      code(await set(12, "2030-07-01"), "expiryBeyondSuperior");
      ok(await set(12, "2030-06-30"));
      // Beyond the setter's own account expiry.
      ok(
        await call(
          "/v3/new/account/update",
          { id: ids.dist, expiration: "2029-01-01" },
          tokens.admin,
        ),
      );
      code(await set(11, "2029-06-01"), "expiryBeyondSuperior");
      ok(await set(11, "2028-12-31"));
      ok(await call("/v3/new/account/update", { id: ids.dist, expiration: null }, tokens.admin));
    });

    await t.step("platform term: administrator only, at most ten years", async () => {
      const far = new Date();
      far.setUTCFullYear(far.getUTCFullYear() + 11);
      const body = { imeis: [imeiOf(12)], expiration: far.toISOString().slice(0, 10) };
      code(await call(`${EQ}/updatePlatformExpiration`, body, tokens.admin), "platformTermTooLong");
      code(
        await call(
          `${EQ}/updatePlatformExpiration`,
          { ...body, expiration: "2030-01-01" },
          tokens.dist,
        ),
        "permissionDenied",
      );
    });

    await t.step("groups: rules of spec §5", async () => {
      const g = ok(await call(`${EQ}/addGroup`, { userId: ids.ent, name: "Trucks" }, tokens.dist));
      code(
        await call(`${EQ}/addGroup`, { userId: ids.ent, name: "trucks" }, tokens.dist),
        "groupNameExists",
      );
      code(
        await call(`${EQ}/addGroup`, { userId: ids.ent, name: "Default" }, tokens.dist),
        "groupNameExists",
      );
      code(
        await call(`${EQ}/addGroup`, { userId: ids.ent, name: "x".repeat(21) }, tokens.dist),
        "illegalParameter",
      );
      code(
        await call(`${EQ}/addGroup`, { userId: ids.ent, name: "  " }, tokens.dist),
        "illegalParameter",
      );
      code(
        await call(`${EQ}/addGroup`, { userId: ids.other, name: "Mine" }, tokens.dist),
        "permissionDenied",
      );
      // Same name in another account is fine.
      ok(await call(`${EQ}/addGroup`, { userId: ids.dist, name: "Trucks" }, tokens.dist));
      code(
        await call(
          `${EQ}/updateGroupName`,
          { userId: ids.ent, groupId: "0", name: "New" },
          tokens.dist,
        ),
        "deviceDefaultGroupLocked",
      );
      const vans = ok(await call(`${EQ}/addGroup`, { userId: ids.ent, name: "Vans" }, tokens.dist));
      code(
        await call(
          `${EQ}/updateGroupName`,
          { userId: ids.ent, groupId: vans.id, name: "TRUCKS" },
          tokens.dist,
        ),
        "groupNameExists",
      );
      ok(
        await call(
          `${EQ}/updateGroupName`,
          { userId: ids.ent, groupId: vans.id, name: "Vans 2" },
          tokens.dist,
        ),
      );
      // Devices of different accounts cannot share a group: only the group's account's move.
      const mixed = ok(
        await call(
          `${EQ}/setGroup`,
          { imeis: [imeiOf(10), imeiOf(2)], groupId: g.id },
          tokens.dist,
        ),
      );
      assert.equal(mixed.done, 1);
      assert.deepEqual(
        mixed.results.map((r: { ok: boolean; error: string | null }) => [r.ok, r.error]),
        [[true, null], [false, "groupAccountMismatch"]],
      );
      assert.equal(app.services.directory.get(imeiOf(2))?.groupId ?? null, null);
      code(
        await call(`${EQ}/setGroup`, { imeis: [imeiOf(2)], groupId: g.id }, tokens.dist),
        "groupNotExists",
      );
      ok(
        await call(
          `${EQ}/setGroup`,
          { imeis: [imeiOf(10), imeiOf(11)], groupId: g.id },
          tokens.dist,
        ),
      );
      const listed = ok(
        await call(`${EQ}/queryEquipmentList`, {
          pageNum: 1,
          pageSize: 10,
          userId: ids.ent,
          groupId: g.id,
        }, tokens.dist),
      );
      assert.equal(listed.total, 2);
      assert.equal(listed.list[0].groupName, "Trucks");
      const del = (groupId: string) =>
        call(
          `${EQ}/deleteGroup?userId=${ids.ent}&groupId=${groupId}`,
          undefined,
          tokens.dist,
          "DELETE",
        );
      code(await del(g.id), "groupHasDevices");
      code(await del("0"), "deviceDefaultGroupLocked");
      ok(await call(`${EQ}/topUserGroup`, { userId: ids.ent, groupId: vans.id }, tokens.dist));
      const groups = ok(await call(`${EQ}/getGroupList`, { userId: ids.ent }, tokens.dist));
      assert.deepEqual(groups.map((x: { id: string }) => x.id), ["0", vans.id, g.id]);
      assert.equal(groups.find((x: { id: string }) => x.id === g.id).count, 2);
      ok(await del(vans.id));
      ok(
        await call(
          `${EQ}/setGroup`,
          { imeis: [imeiOf(10), imeiOf(11)], groupId: "0" },
          tokens.dist,
        ),
      );
      ok(await del(g.id));
    });

    await t.step("basic and customer tabs: length limits and the VIN warning", async () => {
      const basic = {
        imei: imeiOf(10),
        deviceName: "Truck 10",
        sim: "13800000000",
        iccid: "",
        imsi: "",
        sn: "SN-1",
        macAddress: "",
        reMark: "r",
        applicationType: "truck",
      };
      code(
        await call(`${EQ}/updateBasic`, { ...basic, sim: "1".repeat(21) }, tokens.dist),
        "illegalParameter",
      );
      code(
        await call(`${EQ}/updateBasic`, { ...basic, sn: "s".repeat(51) }, tokens.dist),
        "illegalParameter",
      );
      const long = await call(
        `${EQ}/updateBasic`,
        { ...basic, reMark: "r".repeat(501) },
        tokens.dist,
      );
      code(long, "illegalParameter");
      assert.equal(long.json.data.field, "reMark");
      ok(await call(`${EQ}/updateBasic`, basic, tokens.dist));
      const customer = (await detail(10)).customer;
      const send = (c: Record<string, unknown>, confirmVin?: boolean) =>
        call(`${EQ}/updateCustomer`, {
          imei: imeiOf(10),
          customer: { ...customer, ...c },
          confirmVin,
        }, tokens.dist);
      code(await send({ driverName: "d".repeat(21) }), "illegalParameter");
      code(await send({ vehicleNumber: "p".repeat(51) }), "illegalParameter");
      code(await send({ carFrame: "f".repeat(51) }), "illegalParameter");
      const warn = await send({ carFrame: "ABC123" });
      code(warn, "vinFormatWarning");
      assert.equal(warn.json.data.field, "carFrame");
      ok(await send({ carFrame: "ABC123", driverName: "Li Lei" }, true));
      ok(await send({ carFrame: "1hgcm82633a004352" }));
      const saved = await detail(10);
      assert.equal(saved.customer.carFrame, "1HGCM82633A004352");
      assert.equal(saved.basic.deviceName, "Truck 10");
      assert.equal(saved.basic.sim, "13800000000");
      const listed = ok(
        await call(`${EQ}/globalSearchEquipment`, { keyword: "Truck 10" }, tokens.dist),
      );
      assert.equal(listed.list[0].imei, imeiOf(10), "the directory sees the new name");
    });

    await t.step("alerts tab: threshold rules", async () => {
      const alerts = (await detail(10)).alerts;
      const send = (a: Record<string, unknown>) =>
        call(`${EQ}/updateAlerts`, { imei: imeiOf(10), alerts: { ...alerts, ...a } }, tokens.dist);
      code(await send({ minTemperature: -41 }), "illegalParameter");
      code(await send({ minTemperature: 30, maxTemperature: 20 }), "temperatureRange");
      code(await send({ overSpeed: 100 }), "overSpeedPair");
      code(await send({ overSpeed: 100, overSecond: 15 }), "illegalParameter");
      code(await send({ overSpeed: 100, overSecond: 610 }), "illegalParameter");
      code(await send({ mileageThreshold: 5000 }), "mileageNeedsCurrent");
      code(await send({ aCCOnDurtionThreshold: 49, initialValue: 1 }), "illegalParameter");
      code(await send({ aCCOnDurtionThreshold: 60 }), "accOnNeedsCurrent");
      ok(
        await send({
          minTemperature: -10,
          maxTemperature: 40,
          overSpeed: 100,
          overSecond: 30,
          input1: { active: "Door open", inactive: "Door closed" },
        }),
      );
      assert.equal((await detail(10)).alerts.input1.active, "Door open");
    });

    await t.step(
      "sensors tab: battery required, one fuel type, unique names, MACs and tanks",
      async () => {
        const tank = {
          name: "Main",
          type: "fuel",
          tankId: "T1",
          minVoltage: 0,
          maxVoltage: 5,
          cutoffVoltage: null,
          refuelThreshold: 10,
          shape: "cube",
          diameter: null,
          height: 50,
          width: 40,
          length: 100,
          oilHeight: null,
          capacity: null,
        };
        const sensors = {
          adc: "",
          serialPort: "",
          serialPort485: "",
          digitalPort: "",
          batteryType: "lithium",
          nominalVoltage: 12,
          oilRods: [{ name: "Rod A", type: "capacitive", mac: "" }],
          deviceWireSensorsVos: [{ name: "Temp 1", type: 1, mac: "AA:BB:CC:DD:EE:01" }],
          oilTanks: [tank],
        };
        const send = (s: Record<string, unknown>) =>
          call(
            `${EQ}/updateSensors`,
            { imei: imeiOf(10), sensors: { ...sensors, ...s } },
            tokens.dist,
          );
        const { batteryType: _b, ...noBattery } = sensors;
        code(
          await call(`${EQ}/updateSensors`, { imei: imeiOf(10), sensors: noBattery }, tokens.dist),
          "illegalParameter",
        );
        code(await send({ nominalVoltage: null }), "illegalParameter");
        code(
          await send({
            oilRods: [sensors.oilRods[0], { name: "Rod B", type: "ultrasonic", mac: "" }],
          }),
          "fuelSensorTypeMixed",
        );
        code(
          await send({ oilRods: [{ name: "temp 1", type: "capacitive", mac: "" }] }),
          "sensorNameExists",
        );
        code(
          await send({
            oilRods: [{ name: "Rod A", type: "capacitive", mac: "aa-bb-cc-dd-ee-01" }],
          }),
          "sensorMacExists",
        );
        code(await send({ oilTanks: [tank, { ...tank, tankId: "T2" }] }), "tankNameExists");
        code(await send({ oilTanks: [tank, { ...tank, name: "Spare" }] }), "tankIdExists");
        code(await send({ oilTanks: [{ ...tank, shape: "horizontal" }] }), "illegalParameter");
        // Irregular tanks: a calibration table whose readings rise and whose litres never fall.
        const irregular = { ...tank, shape: "irregular", height: null, width: null, length: null };
        const table = [{ value: 0.5, litres: 0 }, { value: 2, litres: 60 }, {
          value: 4.5,
          litres: 150,
        }];
        const bad = await send({ oilTanks: [{ ...irregular, calibration: [table[1], table[0]] }] });
        code(bad, "illegalParameter");
        assert.ok(JSON.stringify(bad.json).includes("calibration"), JSON.stringify(bad.json));
        code(await send({ oilTanks: [irregular] }), "illegalParameter"); // neither table nor capacity
        const withTable = ok(await send({ oilTanks: [{ ...irregular, calibration: table }] }));
        assert.equal(withTable.oilTanks[0].capacity, 150, "the table's full litres");
        assert.deepEqual((await detail(10)).sensors.oilTanks[0].calibration, table);
        const saved = ok(await send({}));
        assert.equal(saved.oilTanks[0].capacity, 200, "50 × 40 × 100 cm = 200 L");
        assert.equal((await detail(10)).sensors.oilTanks[0].capacity, 200);
      },
    );

    await t.step(
      "transfer: own subtree only, not to oneself, one at a time, no cross-node",
      async () => {
        const send = (imeis: string[], targetUserId: string, token = tokens.dist) =>
          call(`${EQ}/transferEquipment`, { imeis, targetUserId }, token);
        code(await send([imeiOf(3)], ids.dist), "transferToSelf");
        code(await send([imeiOf(3)], ids.other), "permissionDenied");
        code(await send([imeiOf(40)], ids.user), "deviceNoPermission");
        code(await send([imeiOf(3)], ids.far), "crossNodeRefused");
        assert.ok(await app.services.accountStore.acquireTransferLock("someone else"));
        code(await send([imeiOf(3)], ids.user), "transferRunning");
        await app.services.accountStore.releaseTransferLock();
        const r = ok(await send([imeiOf(3), imeiOf(4)], ids.user));
        assert.equal(r.moved, 2);
        code(await send([imeiOf(3)], ids.user), "transferAlreadyUnderTarget");
        const inUser = ok(
          await call(`${EQ}/queryEquipmentList`, {
            pageNum: 1,
            pageSize: 50,
            userId: ids.user,
            ownOnly: true,
          }, tokens.dist),
        );
        assert.ok(
          inUser.list.some((d: { imei: string; saleTime: string }) =>
            d.imei === imeiOf(3) && d.saleTime
          ),
        );
        const inSibling = ok(
          await call(
            `${EQ}/queryEquipmentList`,
            { pageNum: 1, pageSize: 50, userId: ids.sibling },
            tokens.dist,
          ),
        );
        assert.ok(
          !inSibling.list.some((d: { imei: string }) => d.imei === imeiOf(3)),
        );
        const log = ok(await call(`${EQ}/allocationLog`, { imei: imeiOf(3) }, tokens.dist));
        assert.equal(log.length, 1);
        assert.equal(log[0].fromAccount, "mg_dist");
        assert.equal(log[0].toAccount, "mg_user");
        // The account store agrees with the directory.
        assert.equal((await app.services.deviceStore.get(imeiOf(3)))?.userId, ids.user);
        assert.ok(await app.services.deviceStore.hasDevices(ids.user));
        // The lock is released after the transfer.
        assert.ok(await app.services.accountStore.acquireTransferLock("check"));
        await app.services.accountStore.releaseTransferLock();
        // ent (a sub-account) sees them; the sibling's user cannot touch them.
        ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(3) }, tokens.ent));
      },
    );

    await t.step("app account binding fills APP- ids", async () => {
      code(
        await call(
          `${EQ}/bindAppAccount`,
          { imei: imeiOf(11), appAccount: "mg_other" },
          tokens.dist,
        ),
        "appAccountInvalid",
      );
      ok(
        await call(
          `${EQ}/bindAppAccount`,
          { imei: imeiOf(11), appAccount: "mg_user" },
          tokens.dist,
        ),
      );
      const d = await detail(11);
      assert.equal(d.basic.bindUserAccount, "mg_user");
      assert.match(d.customer.driverId, /^APP-[0-9A-F]{12}$/);
      assert.match(d.customer.vehicleId, /^APP-/);
      const bound = ok(
        await call(
          `${EQ}/queryEquipmentList`,
          { pageNum: 1, pageSize: 10, bound: true },
          tokens.dist,
        ),
      );
      assert.deepEqual(bound.list.map((x: { imei: string }) => x.imei), [imeiOf(11)]);
      ok(await call(`${EQ}/unbindAppAccount`, { imei: imeiOf(11) }, tokens.dist));
      assert.equal((await detail(11)).basic.bindUserAccount, null);
    });

    await t.step("model aliases are per user", async () => {
      code(
        await call("/v3/new/newDevice/setModelAlias", { aliases: { NOPE: "x" } }, tokens.dist),
        "modelNotExists",
      );
      ok(
        await call(
          "/v3/new/newDevice/setModelAlias",
          { aliases: { GT06N: "Car tracker" } },
          tokens.dist,
        ),
      );
      const mine = ok(await call("/v3/new/newDevice/getModelAlias", undefined, tokens.dist));
      assert.equal(mine.find((m: { mcType: string }) => m.mcType === "GT06N").alias, "Car tracker");
      assert.equal((await detail(10)).basic.mcTypeAlias, "Car tracker");
      const theirs = ok(await call("/v3/new/newDevice/getModelAlias", undefined, tokens.ent));
      assert.equal(theirs.find((m: { mcType: string }) => m.mcType === "GT06N").alias, "");
    });

    await t.step("xlsx: template, import with per-row results, export, batch edit", async () => {
      const tpl = await call(`${EQ}/importTemplate`, undefined, tokens.dist);
      assert.equal(
        tpl.res.headers.get("content-type"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      );
      const tplRows = await rowsOf(new Uint8Array(await tpl.res.arrayBuffer()));
      assert.equal(tplRows[0][0], "IMEI");
      const file = await sheet([
        ["IMEI", "Name", "SIM"],
        [imeiOf(70), "Van 70", "1390000"],
        [Number(imeiOf(71)), "", ""],
        ["123", "bad", ""],
        [imeiOf(70), "again", ""],
        [imeiOf(72), "n".repeat(51), ""],
        [imeiOf(1), "exists", ""],
      ]);
      const r = ok(
        await upload(`${EQ}/importEquipmentFile`, file, { userId: ids.ent, mcType: "GT06N" }),
      );
      assert.equal(r.succeeded, 2);
      const byRow = Object.fromEntries(r.results.map((x: { row: number }) => [x.row, x]));
      assert.equal(byRow[2].ok, true);
      assert.equal(byRow[3].ok, true, "a numeric cell keeps all 15 digits");
      assert.equal(byRow[3].imei, imeiOf(71));
      assert.match(byRow[4].reason, /IMEI/);
      assert.match(byRow[5].reason, /repeated/);
      assert.match(byRow[6].reason, /at most 50/);
      assert.match(byRow[7].reason, /already exists/);
      assert.equal((await detail(70)).basic.deviceName, "Van 70");
      assert.equal((await detail(70)).basic.sim, "1390000");
      code(
        await upload(`${EQ}/importEquipmentFile`, new TextEncoder().encode("not a sheet"), {
          userId: ids.ent,
          mcType: "GT06N",
        }),
        "spreadsheetInvalid",
      );

      const exp = await call(`${EQ}/exportEquipment`, { userId: ids.ent }, tokens.dist);
      const exported = await rowsOf(new Uint8Array(await exp.res.arrayBuffer()));
      // Header, ent: 10-12, 70, 71; user: 20, 21 and the transferred 3, 4.
      assert.equal(exported.length, 1 + 5 + 4);

      const edit = await call(
        `${EQ}/batchEditTemplate`,
        { imeis: [imeiOf(70), imeiOf(71)] },
        tokens.dist,
      );
      const rows = await rowsOf(new Uint8Array(await edit.res.arrayBuffer()));
      assert.equal(rows[1][1], "Van 70");
      rows[1][1] = "Van 70 edited";
      rows[1][8] = "B-70";
      rows[2][1] = "";
      rows.push([imeiOf(40), "not mine"]);
      const applied = ok(await upload(`${EQ}/batchEditUpload`, await sheet(rows), {}));
      assert.deepEqual(applied.map((x: { ok: boolean }) => x.ok), [true, false, false]);
      assert.match(applied[1].reason, /required/);
      assert.match(applied[2].reason, /permission/i);
      const after = await detail(70);
      assert.equal(after.basic.deviceName, "Van 70 edited");
      assert.equal(after.customer.vehicleNumber, "B-70");
    });

    await t.step("install images and ringtones: content sniffing and limits", async () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
      const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
      const files = [
        new File([png], `${imeiOf(10)}(1).png`),
        new File([jpg], `${imeiOf(10)}(2).jpg`),
        new File([new TextEncoder().encode("<?php")], `${imeiOf(10)}(3).jpg`),
        new File([png], "photo.png"),
        new File([png], `${imeiOf(40)}(1).png`),
      ];
      const r = ok(await uploadFiles(files));
      assert.deepEqual(r.map((x: { ok: boolean }) => x.ok), [true, true, false, false, false]);
      assert.match(r[2].reason, /type/);
      assert.match(r[4].reason, /permission/i);
      const more = Array.from(
        { length: 8 },
        (_, i) => new File([png], `${imeiOf(10)}(${i + 3}).png`),
      );
      const r2 = ok(await uploadFiles(more));
      assert.deepEqual(r2.map((x: { ok: boolean }) => x.ok), [
        true,
        true,
        true,
        true,
        true,
        true,
        true,
        false,
      ]);
      assert.equal((await detail(10)).basic.installImages.length, 9);
      const img = await call(
        `${EQ}/installImage?imei=${imeiOf(10)}&name=${encodeURIComponent(`${imeiOf(10)}(1).png`)}`,
        undefined,
        tokens.dist,
      );
      assert.equal(img.res.headers.get("content-type"), "image/png");
      assert.deepEqual(new Uint8Array(await img.res.arrayBuffer()), png);
      code(
        await call(`${EQ}/installImage?imei=${imeiOf(10)}&name=x.png`, undefined, tokens.other),
        "deviceNoPermission",
      );
      ok(
        await call(
          `${EQ}/deleteInstallImage`,
          { imei: imeiOf(10), name: `${imeiOf(10)}(1).png` },
          tokens.dist,
        ),
      );
      assert.equal((await detail(10)).basic.installImages.length, 8);

      const wav = new Uint8Array(64);
      wav.set([0x52, 0x49, 0x46, 0x46], 0);
      wav.set([0x57, 0x41, 0x56, 0x45], 8);
      code(await ringtone(imeiOf(10), new File([wav], "a.wav")), "ringtoneUnsupported");
      const noImei = await ringtone("123", new File([wav], "a.wav"));
      code(noImei, "illegalParameter");
      assert.equal(noImei.json.msg, "IMEI is not valid (15 digits).");
      const noUser = await upload(`${EQ}/importEquipmentFile`, new Uint8Array(4), {
        mcType: "GT06N",
      });
      code(noUser, "illegalParameter");
      assert.equal(noUser.json.data.field, "userId");
      await importTo(ids.ent, 80, 1, { mcType: "AT4" });
      code(await ringtone(imeiOf(80), new File([jpg], "a.mp3")), "fileTypeInvalid");
      const big = new Uint8Array(512 * 1024);
      big.set([0x49, 0x44, 0x33]);
      code(await ringtone(imeiOf(80), new File([big], "a.mp3")), "fileTooLarge");
      const saved = ok(await ringtone(imeiOf(80), new File([wav], "a.wav")));
      assert.equal(saved.ringtone, `${imeiOf(80)}.wav`);
    });

    await t.step(
      "install image task list: per user, newest first, paged, at most 9999",
      async () => {
        const tasks = (token: string, pageNum = 1) =>
          call(`${EQ}/installImageTasks`, { pageNum, pageSize: 10 }, token);
        const first = ok(await tasks(tokens.dist));
        assert.equal(first.total, 13, "5 + 8 files uploaded above");
        assert.equal(first.list.length, 10);
        assert.equal(first.list[0].name, `${imeiOf(10)}(10).png`);
        assert.equal(first.list[0].ok, false);
        assert.match(first.list[0].reason, /Too many images/);
        assert.equal(first.list[1].ok, true);
        const second = ok(await tasks(tokens.dist, 2));
        assert.deepEqual(
          second.list.map((x: { name: string; ok: boolean }) => [x.name, x.ok]),
          [
            [`${imeiOf(10)}(3).jpg`, false],
            [`${imeiOf(10)}(2).jpg`, true],
            [`${imeiOf(10)}(1).png`, true],
          ],
        );
        assert.equal(ok(await tasks(tokens.other)).total, 0, "tasks belong to the uploader");
        // Older tasks beyond the cap are dropped (cap lowered here; the product's is 9999).
        assert.equal(MAX_IMAGE_TASKS, 9999);
        const distId = ids.dist;
        const extra = Array.from({ length: 4 }, (_, i) => ({
          id: `x${i}`,
          time: new Date(Date.now() + 1000 + i).toISOString(),
          name: `extra${i}.png`,
          imei: null,
          ok: false,
          error: "fileTypeInvalid",
        }));
        await app.services.deviceStore.addImageTasks(distId, extra, 15);
        const capped = ok(await tasks(tokens.dist));
        assert.equal(capped.total, 15);
        assert.equal(capped.list[0].name, "extra3.png");
      },
    );
  } finally {
    await app.close();
  }

  async function activate(n: number) {
    const d = app.services.directory.get(imeiOf(n))!;
    await app.services.ingestor.submit(d, [{ type: "status", time: new Date(), attributes: {} }]);
  }
  async function detail(n: number) {
    return ok(await call(`${EQ}/getDeviceDetail`, { imei: imeiOf(n) }, tokens.dist));
  }
  async function upload(path: string, bytes: Uint8Array, fields: Record<string, string>) {
    const form = new FormData();
    form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], "devices.xlsx"));
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return await multipart(path, form);
  }
  async function uploadFiles(files: File[]) {
    const form = new FormData();
    for (const f of files) form.append("files", f);
    return await multipart(`${EQ}/uploadInstallImages`, form);
  }
  async function ringtone(imei: string, file: File) {
    const form = new FormData();
    form.set("imei", imei);
    form.set("file", file);
    return await multipart(`${EQ}/uploadRingtone`, form);
  }
  async function multipart(path: string, form: FormData): Promise<Call> {
    const res = await app.app.request(path, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.dist}` },
      body: form,
    });
    return { status: res.status, json: await res.json(), res };
  }
});

async function sheet(rows: unknown[][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("s");
  for (const r of rows) ws.addRow(r);
  return new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
}

async function rowsOf(bytes: Uint8Array): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes.buffer as ArrayBuffer);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) => {
    out.push((row.values as unknown[]).slice(1).map((v) => String(v ?? "")));
  });
  return out;
}
