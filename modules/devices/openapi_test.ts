import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";

const EQ = "/v3/new/newEquipment";
type Schema = {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  maxItems?: number;
  maxLength?: number;
};

Deno.test("openapi.json: device uploads as multipart/form-data, file answers as binary", async () => {
  const app = await testApp();
  try {
    const doc = (await app.call("/v3/new/openapi.json")).json;
    const form = (path: string): Schema => {
      const op = doc.paths[path]?.post;
      assert.ok(op, `${path} is documented`);
      const schema = op.requestBody?.content?.["multipart/form-data"]?.schema;
      assert.ok(schema, `${path} has a multipart body`);
      return schema;
    };
    const file = { type: "string", format: "binary" };

    const imp = form(`${EQ}/importEquipmentFile`);
    assert.deepEqual(imp.required?.sort(), ["file", "mcType", "userId"]);
    assert.equal(imp.properties!.file.format, file.format);
    assert.equal(imp.properties!.file.type, file.type);
    assert.ok(imp.properties!.activationMode);

    assert.equal(form(`${EQ}/batchEditUpload`).properties!.file.format, "binary");

    const images = form(`${EQ}/uploadInstallImages`).properties!.files;
    assert.equal(images.type, "array");
    assert.equal(images.items!.format, "binary");
    assert.equal(images.maxItems, 200);

    const ring = form(`${EQ}/uploadRingtone`);
    assert.deepEqual(ring.required?.sort(), ["file", "imei"]);
    assert.equal(ring.properties!.file.maxLength, 512 * 1024 - 1);

    // Downloads: the xlsx (or image) beside the refusal envelope.
    const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    for (const [path, method] of [["importTemplate", "get"], ["exportEquipment", "post"]]) {
      const content = doc.paths[`${EQ}/${path}`][method].responses[200].content;
      assert.deepEqual(content[xlsx].schema, file, path);
      assert.ok(content["application/json"], `${path} still documents the envelope`);
    }
    assert.ok(doc.paths[`${EQ}/installImage`].get.responses[200].content["image/jpeg"]);

    // JSON routes keep their JSON bodies.
    const renew = doc.paths[`${EQ}/renewEquipment`].post.requestBody.content;
    assert.deepEqual(Object.keys(renew), ["application/json"]);
    assert.ok(doc.paths["/v3/new/wallet/allocate"].post);
  } finally {
    await app.close();
  }
});
