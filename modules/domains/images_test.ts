/**
 * White-label image uploads (issue 15): the administrator uploads logo, icon and backgrounds;
 * files are checked by content (type by magic bytes, size, dimensions), stored under DATA_DIR
 * with their facts in the store, served back at the spec's tracker/domain addresses with
 * their real type, and the configuration's fields hold the spec's full address.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import {
  addAccount,
  addVirtual,
  assertCode,
  assertOk,
  PASSWORD,
  whoAmI,
} from "../accounts/test_support.ts";
import { checkImage, inspectImage } from "./images.ts";
import { MAX_DOMAIN_IMAGE_BYTES } from "./model.ts";
import { gifHeader, icoFile, jpegHeader, png, pngHeader, webpHeader } from "./test_images.ts";

const UPLOAD = "/v3/new/domain/uploadImage";

Deno.test("inspectImage reads the type and size from the header, not the name", async () => {
  assert.deepEqual(inspectImage(await png(3, 2)), { type: "png", width: 3, height: 2 });
  assert.deepEqual(inspectImage(jpegHeader(640, 480)), { type: "jpeg", width: 640, height: 480 });
  assert.deepEqual(inspectImage(gifHeader(16, 8)), { type: "gif", width: 16, height: 8 });
  assert.deepEqual(inspectImage(webpHeader(1920, 1080)), {
    type: "webp",
    width: 1920,
    height: 1080,
  });
  assert.deepEqual(inspectImage(icoFile()), { type: "ico", width: 32, height: 32 });
  const text = (s: string) => new TextEncoder().encode(s);
  for (
    const bad of [
      text("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
      text("just some text that is long enough to be read as a header"),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47]), // a signature alone
      jpegHeader(10, 10).slice(0, 22), // cut before the frame header
      new Uint8Array([0, 0, 1, 0, 1, 0, 32, 32, 0, 0, 1, 0, 32, 0, 99, 0, 0, 0, 22, 0, 0, 0]),
    ]
  ) {
    assert.equal(inspectImage(bad), null);
  }
});

Deno.test("checkImage refuses oversize files and implausible dimensions", async () => {
  assert.deepEqual(checkImage(await png(4, 4)).type, "png");
  const refusal = (bytes: Uint8Array) => {
    try {
      checkImage(bytes);
      return "accepted";
    } catch (e) {
      return (e as Error).message;
    }
  };
  assert.equal(refusal(pngHeader(10, 10, MAX_DOMAIN_IMAGE_BYTES + 1)), "fileTooLarge");
  assert.equal(refusal(pngHeader(10, 10, MAX_DOMAIN_IMAGE_BYTES)), "accepted");
  assert.equal(refusal(pngHeader(0, 10)), "imageDimensionsInvalid");
  assert.equal(refusal(pngHeader(5000, 10)), "imageDimensionsInvalid");
  assert.equal(refusal(pngHeader(4096, 4096)), "accepted");
  assert.equal(refusal(new TextEncoder().encode("x".repeat(100))), "fileTypeInvalid");
});

Deno.test("white-label image upload", async (s) => {
  const t = await testApp();
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  await addAccount(t, admin, { account: "userA", accountType: 12, parentId: adminId });
  await addVirtual(t, admin, "virtAdmin");
  const others = {
    distributor: await t.login("distA", PASSWORD),
    endUser: await t.login("userA", PASSWORD),
    virtual: await t.login("virtAdmin", PASSWORD),
  };
  const dir = `${t.services.config.DATA_DIR}/domains/images`;
  const upload = async (
    bytes: Uint8Array,
    name: string,
    o: { token?: string; field?: string; type?: string } = {},
  ) => {
    const form = new FormData();
    if (o.field !== "") form.set("field", o.field ?? "domainLogin");
    form.set(
      "file",
      new File([bytes as Uint8Array<ArrayBuffer>], name, { type: o.type ?? "image/png" }),
    );
    const token = o.token === undefined ? admin : o.token;
    const res = await t.app.request(UPLOAD, {
      method: "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    const json = res.headers.get("content-type")?.includes("json") ? await res.json() : null;
    return { status: res.status, json, res };
  };
  const get = (path: string, host = "track.example.com") => t.app.request(`http://${host}${path}`);
  const filesOnDisk = async () => {
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(dir)) names.push(e.name);
    } catch { /* no folder yet */ }
    return names.sort();
  };

  try {
    let logo = "";
    let logoBytes = new Uint8Array();
    await s.step("a PNG named .jpg is accepted, stored by its real type", async () => {
      logoBytes = await png(120, 40);
      const r = await upload(logoBytes, "logo.jpg", { type: "image/jpeg" });
      assertOk(r);
      const d = r.json.data;
      assert.match(d.path, /^[0-9a-f]{32}\.png$/);
      assert.equal(d.field, "domainLogin");
      assert.equal(d.type, "image/png");
      assert.deepEqual([d.width, d.height, d.size], [120, 40, logoBytes.length]);
      assert.equal(d.url, `http://localhost/tracker/domain/${d.path}`);
      logo = d.path;
      assert.deepEqual(await filesOnDisk(), [logo]);
      assert.deepEqual(await Deno.readFile(`${dir}/${logo}`), logoBytes);
      const meta = await t.services.domains.image(logo);
      assert.equal(meta?.type, "png");
      assert.equal(meta?.originalName, "logo.jpg");
      assert.equal(meta?.uploadedBy, adminId);
    });

    await s.step("the image is served back with its type, nosniff and long caching", async () => {
      for (const path of [`/tracker/domain/${logo}`, `/tracker/domain/background/${logo}`]) {
        const res = await get(path);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get("content-type"), "image/png");
        assert.equal(res.headers.get("x-content-type-options"), "nosniff");
        assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
        assert.match(res.headers.get("content-security-policy") ?? "", /sandbox/);
        assert.deepEqual(new Uint8Array(await res.arrayBuffer()), logoBytes);
      }
    });

    await s.step("every accepted type keeps its own type and extension", async () => {
      const cases: [Uint8Array, string, string, string][] = [
        [jpegHeader(1920, 1080), "bg.jpeg", "image/jpeg", ".jpg"],
        [gifHeader(64, 64), "anim.gif", "image/gif", ".gif"],
        [webpHeader(800, 600), "art.webp", "image/webp", ".webp"],
        [icoFile(), "favicon.ico", "image/x-icon", ".ico"],
      ];
      for (const [bytes, name, type, ext] of cases) {
        const r = await upload(bytes, name, { field: "attr1" });
        assertOk(r);
        assert.ok(r.json.data.path.endsWith(ext), name);
        assert.equal(r.json.data.type, type);
        // attr1 lives under tracker/domain/background (spec §3).
        assert.equal(
          r.json.data.url,
          `http://localhost/tracker/domain/background/${r.json.data.path}`,
        );
        const res = await get(`/tracker/domain/background/${r.json.data.path}`);
        assert.equal(res.headers.get("content-type"), type);
        await res.body?.cancel();
      }
    });

    await s.step("a text file or an SVG renamed .png is refused, nothing stored", async () => {
      const before = await filesOnDisk();
      const text = new TextEncoder().encode("hello, this is not an image at all\n".repeat(4));
      const svg = new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9"/></svg>',
      );
      for (const [bytes, type] of [[text, "image/png"], [svg, "image/svg+xml"]] as const) {
        const r = await upload(bytes, "logo.png", { type });
        assertCode(r, "fileTypeInvalid");
        assert.equal(r.json.msg, "The file type is not accepted (PNG, JPEG, GIF, WebP, ICO).");
      }
      assert.deepEqual(await filesOnDisk(), before);
    });

    await s.step("oversize and implausible images are refused", async () => {
      const before = await filesOnDisk();
      const big = await upload(pngHeader(100, 100, MAX_DOMAIN_IMAGE_BYTES + 1024), "big.png");
      assertCode(big, "fileTooLarge");
      assert.equal(big.json.msg, "The file is too large (at most 2 MB).");
      // Far above the limit the body itself is refused before it is read.
      const huge = await upload(pngHeader(100, 100, MAX_DOMAIN_IMAGE_BYTES * 3), "huge.png");
      assertCode(huge, "payloadTooLarge", 413);
      const wide = await upload(pngHeader(20000, 10), "wide.png");
      assertCode(wide, "imageDimensionsInvalid");
      assert.match(wide.json.msg, /4096/);
      assert.deepEqual(await filesOnDisk(), before);
    });

    await s.step("malformed uploads answer catalogue refusals", async () => {
      const noField = await upload(await png(2, 2), "a.png", { field: "" });
      assertCode(noField, "illegalParameter");
      assert.equal(noField.json.data.field, "field");
      const badField = await upload(await png(2, 2), "a.png", { field: "themeColor" });
      assertCode(badField, "illegalParameter");
      const empty = await upload(new Uint8Array(), "a.png");
      assertCode(empty, "illegalParameter");
      assert.equal(empty.json.data.field, "file");
      const json = await t.call(UPLOAD, { field: "attr1", file: "x" }, admin);
      assertCode(json, "illegalParameter");
    });

    await s.step("only the administrator uploads; others leave no trace", async () => {
      const before = await filesOnDisk();
      const metaBefore = (await t.services.domains.images()).length;
      assertCode(
        await upload(await png(2, 2), "x.png", { token: others.distributor }),
        "permissionDenied",
      );
      assertCode(
        await upload(await png(2, 2), "x.png", { token: others.virtual }),
        "permissionDenied",
      );
      const endUser = await upload(await png(2, 2), "x.png", { token: others.endUser });
      assert.notEqual(endUser.json.code, CATALOGUE.success);
      assertCode(await upload(await png(2, 2), "x.png", { token: "" }), "tokenInvalid", 401);
      assert.deepEqual(await filesOnDisk(), before);
      assert.equal((await t.services.domains.images()).length, metaBefore);
    });

    await s.step("only stored names are served; other paths are not found", async () => {
      for (
        const path of [
          `/tracker/domain/${"0".repeat(32)}.png`,
          "/tracker/domain/..%2F..%2Ftracking.kv",
          "/tracker/domain/tracking.kv",
          `/tracker/domain/${logo.replace(".png", ".jpg")}`,
        ]
      ) {
        const res = await get(path);
        assert.equal(res.status, 404, path);
        await res.body?.cancel();
      }
    });

    await s.step("the configuration's fields give the spec's full addresses", async () => {
      const body = {
        host: "track.example.com",
        domainTitle: "Fleet One",
        defaultLanguage: "en",
        themeColor: "#112233",
        hoverColor: "#445566",
        selectedColor: "#aabbcc",
        view: "newlogin",
        resourceDomain: "",
        attr1: "",
        twoDimensionalCodeImage: "",
        domainLogin: logo,
        loginPageIllustration: "",
        demoPageIllustration: "",
        siteIcon: "",
      };
      assertOk(await t.call("/v3/new/domain/save", body, admin));
      const config = async () =>
        (await (await get("/v3/new/domain/config")).json()).data as Record<string, string>;
      // No resource domain: this server, as the browser reached it.
      assert.equal((await config()).domainLogin, `http://track.example.com/tracker/domain/${logo}`);
      const viaProxy = await t.app.request("http://track.example.com/v3/new/domain/config", {
        headers: { "x-forwarded-proto": "https" },
      });
      assert.equal(
        (await viaProxy.json()).data.domainLogin,
        `https://track.example.com/tracker/domain/${logo}`,
      );
      assertOk(
        await t.call(
          "/v3/new/domain/save",
          { ...body, resourceDomain: "https://cdn.example.com" },
          admin,
        ),
      );
      assert.equal((await config()).domainLogin, `https://cdn.example.com/tracker/domain/${logo}`);
      // The address the login page uses loads the uploaded bytes.
      const served = await get(new URL((await config()).domainLogin).pathname);
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), logoBytes);
    });

    await s.step("images no configuration names are removed after a day", async () => {
      const dayOld = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
      for (const image of await t.services.domains.images()) {
        await t.services.domains.saveImage({ ...image, uploadedAt: dayOld });
      }
      const fresh = await upload(await png(8, 8), "new-logo.png");
      assertOk(fresh);
      const config = (await t.call("/v3/new/domain/list", {}, admin)).json.data.list[0];
      const { updatedAt: _u, ...body } = config;
      assertOk(await t.call("/v3/new/domain/save", body, admin));
      // The saved logo and the upload still in a form stay; abandoned uploads go.
      assert.deepEqual(await filesOnDisk(), [logo, fresh.json.data.path].sort());
      assert.equal((await t.services.domains.images()).length, 2);
      assert.equal((await get(`/tracker/domain/${logo}`)).status, 200);
      assertOk(await t.call("/v3/new/domain/delete", { host: config.host }, admin));
      assert.deepEqual(await filesOnDisk(), [fresh.json.data.path]);
      const gone = await get(`/tracker/domain/${logo}`);
      assert.equal(gone.status, 404);
      await gone.body?.cancel();
    });

    await s.step("the store file holds metadata only under its own keys", async () => {
      const keys: string[] = [];
      for await (const e of t.services.kv.list({ prefix: ["domainImages"] })) {
        keys.push(String(e.key[1]));
        assert.equal("bytes" in (e.value as object), false);
      }
      assert.deepEqual(keys.sort(), await filesOnDisk());
    });
  } finally {
    await t.close();
  }
});
