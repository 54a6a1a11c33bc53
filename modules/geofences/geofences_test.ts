import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices, circleFence, squarePolygon } from "../../tests/helpers/alerting.ts";

const LAT = 22.5431, LNG = 114.0579;

Deno.test("geofences API: shapes, limits, groups, binding, black-car review, KML/KMZ import", async (t) => {
  const app = await testApp();
  try {
    const a = await accountWithDevices(app, "fence_a", ["359710049100001", "359710049100002"]);
    const b = await accountWithDevices(app, "fence_b", ["359710049100003"]);

    await t.step(
      "radius must be an integer 200-5000; polygons closed and spanning ≤ 10 km",
      async () => {
        for (const radius of [199, 5001, 300.5]) {
          const r = await app.call(
            "/v3/new/geofence/save",
            circleFence("c", LAT, LNG, radius),
            a.token,
          );
          assert.equal(r.json.code, 49004, `radius ${radius}`);
          assert.equal(r.json.data.field, radius === 300.5 ? "shape.radius" : "shape.radius");
        }
        const open = squarePolygon(LAT, LNG).slice(0, 4);
        const r1 = await app.call("/v3/new/geofence/save", {
          kind: "fence",
          name: "open",
          shape: { kind: "polygon", points: open },
        }, a.token);
        assert.equal(r1.json.code, 49004);
        assert.equal(r1.json.data.field, "shape.points");
        assert.match(r1.json.msg, /closed/);
        const huge = await app.call("/v3/new/geofence/save", {
          kind: "fence",
          name: "huge",
          shape: { kind: "polygon", points: squarePolygon(LAT, LNG, 4000) },
        }, a.token);
        assert.equal(huge.json.code, 49004);
        assert.match(huge.json.msg, /10000/);
        const ok = await app.call(
          "/v3/new/geofence/save",
          circleFence("ok", LAT, LNG, 200),
          a.token,
        );
        assert.equal(ok.json.code, 10000);
        assert.equal(ok.json.data.color, "#3b7aff");
      },
    );

    await t.step("at most 20 fences and 20 landmarks per account", async () => {
      for (let i = 1; i < 20; i++) {
        const r = await app.call(
          "/v3/new/geofence/save",
          circleFence(`f${i}`, LAT, LNG + i / 100),
          a.token,
        );
        assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      }
      const over = await app.call("/v3/new/geofence/save", circleFence("f21", LAT, LNG), a.token);
      assert.equal(over.json.code, 45001);
      assert.match(over.json.msg, /20/);
      for (let i = 0; i < 20; i++) {
        const r = await app.call("/v3/new/geofence/save", {
          kind: "landmark",
          name: `poi${i}`,
          shape: { kind: "circle", center: { lat: LAT, lng: LNG }, radius: 50 },
        }, a.token);
        assert.equal(r.json.code, 10000);
      }
      const lm = await app.call("/v3/new/geofence/save", {
        kind: "landmark",
        name: "poi21",
        shape: { kind: "circle", center: { lat: LAT, lng: LNG }, radius: 50 },
      }, a.token);
      assert.equal(lm.json.code, 45002);
      const list = await app.call(
        "/v3/new/geofence/list",
        { kind: "fence", pageSize: 10 },
        a.token,
      );
      assert.equal(list.json.data.total, 20);
      assert.equal(list.json.data.list.length, 10);
      // Another account has its own 20.
      const other = await app.call("/v3/new/geofence/save", circleFence("b1", LAT, LNG), b.token);
      assert.equal(other.json.code, 10000);
    });

    await t.step(
      "groups: default group locked, in-use group kept, no cross-user grouping",
      async () => {
        const groups = await app.call("/v3/new/geofence/group/list", {}, a.token);
        const def = groups.json.data[0];
        assert.equal(def.isDefault, true);
        assert.equal(def.count, 40);
        assert.equal(
          (await app.call("/v3/new/geofence/group/delete", { id: def.id }, a.token)).json.code,
          45004,
        );
        assert.equal(
          (await app.call("/v3/new/geofence/group/save", { id: def.id, name: "x" }, a.token)).json
            .code,
          45004,
        );
        const g =
          (await app.call("/v3/new/geofence/group/save", { name: "Depots" }, a.token)).json.data;
        const dup = await app.call("/v3/new/geofence/group/save", { name: "depots" }, a.token);
        assert.equal(dup.json.code, 45008);
        const fences =
          (await app.call("/v3/new/geofence/list", { kind: "fence" }, a.token)).json.data.list;
        const moved = await app.call("/v3/new/geofence/group/move", {
          groupId: g.id,
          ids: [fences[0].id],
        }, a.token);
        assert.equal(moved.json.code, 10000);
        assert.equal(
          (await app.call("/v3/new/geofence/group/delete", { id: g.id }, a.token)).json.code,
          45005,
        );
        // B's fence cannot go into A's group, nor can B even see the group.
        const bFence =
          (await app.call("/v3/new/geofence/list", { kind: "fence" }, b.token)).json.data.list[0];
        const cross = await app.call("/v3/new/geofence/group/move", {
          groupId: g.id,
          ids: [bFence.id],
        }, a.token);
        assert.equal(cross.json.code, 49003);
        const admin = await app.call("/v3/new/geofence/group/move", {
          groupId: g.id,
          ids: [bFence.id],
        }, a.admin);
        assert.equal(admin.json.code, 45006);
        const top = await app.call("/v3/new/geofence/group/top", { id: g.id, top: true }, a.token);
        assert.equal(top.json.code, 10000);
      },
    );

    await t.step(
      "devices bind only to fences of their own account; others' zones are invisible",
      async () => {
        const fence =
          (await app.call("/v3/new/geofence/list", { kind: "fence" }, a.token)).json.data.list[0];
        const ok = await app.call("/v3/new/geofence/bind", {
          id: fence.id,
          imeis: ["359710049100001"],
        }, a.token);
        assert.deepEqual(ok.json.data.imeis, ["359710049100001"]);
        const foreign = await app.call("/v3/new/geofence/bind", {
          id: fence.id,
          imeis: ["359710049100003"],
        }, a.admin);
        assert.equal(foreign.json.code, 45012);
        const peek = await app.call("/v3/new/geofence/delete", { id: fence.id }, b.token);
        assert.equal(peek.json.code, 49003);
      },
    );

    await t.step(
      "another tenant's device answers exactly like an IMEI that does not exist",
      async () => {
        const fence =
          (await app.call("/v3/new/geofence/list", { kind: "fence" }, a.token)).json.data.list[0];
        const answer = async (imei: string) => {
          const bound = await app.call(
            "/v3/new/geofence/bind",
            { id: fence.id, imeis: [imei] },
            a.token,
          );
          const saved = await app.call("/v3/new/geofence/save", {
            ...circleFence("probe", LAT, LNG, 300),
            imeis: [imei],
          }, a.token);
          return JSON.stringify([bound.status, bound.json, saved.status, saved.json])
            .replaceAll(imei, "IMEI");
        };
        const sibling = await answer("359710049100003");
        assert.equal(sibling, await answer("359710049199999"));
        assert.match(sibling, /"code":42\d{3}/);
      },
    );

    await t.step(
      "black-car addresses: under review, passed by the administrator, then locked",
      async () => {
        const created = await app.call("/v3/new/geofence/save", {
          kind: "blackCar",
          name: "Chop shop",
          shape: { kind: "circle", center: { lat: LAT, lng: LNG }, radius: 5000 },
        }, a.token);
        assert.equal(created.json.data.review, "reviewing");
        const tooBig = await app.call("/v3/new/geofence/save", {
          kind: "blackCar",
          name: "Too big",
          shape: { kind: "circle", center: { lat: LAT, lng: LNG }, radius: 5001 },
        }, a.token);
        assert.equal(tooBig.json.code, 49004);
        const id = created.json.data.id;
        assert.equal(
          (await app.call("/v3/new/geofence/review", { id, review: "passed" }, a.token)).json.code,
          49003,
        );
        const passed = await app.call("/v3/new/geofence/review", { id, review: "passed" }, a.admin);
        assert.equal(passed.json.data.review, "passed");
        const edit = await app.call("/v3/new/geofence/save", {
          id,
          kind: "blackCar",
          name: "Renamed",
          shape: { kind: "circle", center: { lat: LAT, lng: LNG }, radius: 100 },
        }, a.token);
        assert.equal(edit.json.code, 45009);
        const reviewing = await app.call("/v3/new/geofence/list", {
          kind: "blackCar",
          review: "passed",
        }, a.token);
        assert.equal(reviewing.json.data.total, 1);
      },
    );

    await t.step("KML and KMZ import: file required, one result per placemark", async () => {
      const upload = async (file: File | null, kind = "fence") => {
        const form = new FormData();
        if (file) form.set("file", file);
        form.set("kind", kind);
        const res = await app.app.request("/v3/new/geofence/import", {
          method: "POST",
          headers: { authorization: `Bearer ${b.token}` },
          body: form,
        });
        return await res.json();
      };
      assert.equal((await upload(null)).code, 45010);
      assert.equal((await upload(new File(["hello"], "x.kml"))).code, 45011);
      const ring = squarePolygon(LAT, LNG, 300).map((p) => `${p.lng},${p.lat},0`).join(" ");
      const kml = `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>
        <Placemark><name>Yard &amp; gate</name><description>Main yard</description>
          <Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><name>Depot</name><ExtendedData><Data name="radius"><value>800</value></Data></ExtendedData>
          <Point><coordinates>${LNG},${LAT},0</coordinates></Point></Placemark>
        <Placemark><name>Tiny</name><ExtendedData><Data name="radius"><value>50</value></Data></ExtendedData>
          <Point><coordinates>${LNG},${LAT}</coordinates></Point></Placemark>
        <Placemark><name>Line</name><LineString><coordinates>1,2 3,4</coordinates></LineString></Placemark>
      </Document></kml>`;
      const r = await upload(new File([kml], "zones.kml"));
      assert.equal(r.code, 10000, JSON.stringify(r));
      assert.equal(r.data.succeeded, 2);
      assert.deepEqual(r.data.results.map((x: { ok: boolean }) => x.ok), [
        true,
        true,
        false,
        false,
      ]);
      assert.equal(r.data.results[0].name, "Yard & gate");
      assert.match(r.data.results[2].msg, /radius/);
      const kmz = zipSync({ "doc.kml": new TextEncoder().encode(kml) });
      const z = await upload(new File([kmz], "zones.kmz"), "landmark");
      assert.equal(z.data.succeeded, 3, JSON.stringify(z));
      const layer = await app.call("/v3/new/geofence/layer", { kind: "landmark" }, b.token);
      assert.equal(layer.json.data.length, 3);
    });
  } finally {
    await app.close();
  }
});
