/**
 * Safe unzip (lib/archive.ts) and the uploads that open archives: a zip bomb (hundreds of
 * MB of deflated zeros in a few hundred KB) and a zip of thousands of entries are refused
 * while inflating, through the real KMZ and xlsx routes, without the process's memory
 * following the archive's claims.
 */
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { zipSync } from "fflate";
import ExcelJS from "exceljs";
import { ArchiveInvalid, checkArchive, KMZ_LIMITS, unzipSafe, XLSX_LIMITS } from "./archive.ts";
import { BizError, CATALOGUE } from "./errors.ts";
import { testApp } from "../tests/helpers/harness.ts";

const MB = 1024 * 1024;

/** An entry of a hand-written zip: real bytes, or `zeroMb` megabytes of zeros. */
type Item = { name: string; bytes?: Uint8Array; zeroMb?: number };

/**
 * Writes a deflated zip with correct sizes and CRCs, as an attacker's tool would. Deno's
 * native deflate makes 400 MB of zeros in ~0.1 s (fflate's own takes seconds).
 */
async function zipOf(items: Item[]): Promise<Uint8Array<ArrayBuffer>> {
  const enc = new TextEncoder();
  const out: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const item of items) {
    const mb = new Uint8Array(MB);
    const chunks = item.bytes ? [item.bytes] : Array.from({ length: item.zeroMb ?? 0 }, () => mb);
    let crc = 0;
    let size = 0;
    for (const c of chunks) (crc = zlib.crc32(c, crc)), (size += c.length);
    const data = await deflateRaw(chunks);
    const name = enc.encode(item.name);
    const local = header(30, name, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(8, 8, true);
      v.setUint32(14, crc >>> 0, true);
      v.setUint32(18, data.length, true);
      v.setUint32(22, size, true);
      v.setUint16(26, name.length, true);
    });
    central.push(header(46, name, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, 20, true);
      v.setUint16(10, 8, true);
      v.setUint32(16, crc >>> 0, true);
      v.setUint32(20, data.length, true);
      v.setUint32(24, size, true);
      v.setUint16(28, name.length, true);
      v.setUint32(42, offset, true);
    }));
    out.push(local, data);
    offset += local.length + data.length;
  }
  const cdSize = central.reduce((a, c) => a + c.length, 0);
  const end = header(22, new Uint8Array(0), (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, items.length, true);
    v.setUint16(10, items.length, true);
    v.setUint32(12, cdSize, true);
    v.setUint32(16, offset, true);
  });
  return new Uint8Array(await new Blob([...out, ...central, end] as BlobPart[]).arrayBuffer());
}

function header(length: number, name: Uint8Array, fill: (v: DataView) => void): Uint8Array {
  const h = new Uint8Array(length + name.length);
  fill(new DataView(h.buffer));
  h.set(name, length);
  return h;
}

async function deflateRaw(chunks: Uint8Array[]): Promise<Uint8Array> {
  const cs = new CompressionStream("deflate-raw");
  const writer = cs.writable.getWriter();
  const writing = (async () => {
    for (const c of chunks) await writer.write(c as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  const data = new Uint8Array(await new Response(cs.readable).arrayBuffer());
  await writing;
  return data;
}

const refusedTooLarge = (e: unknown) => e instanceof BizError && e.key === "archiveTooLarge";

Deno.test("unzipSafe reads a normal archive like fflate does", () => {
  const doc = new TextEncoder().encode("<kml>" + "x".repeat(100_000) + "</kml>");
  const zip = zipSync({ "doc.kml": doc, "files/icon.png": new Uint8Array([1, 2, 3]) });
  const files = unzipSafe(zip, KMZ_LIMITS);
  assert.deepEqual([...files.keys()].sort(), ["doc.kml", "files/icon.png"]);
  assert.deepEqual(files.get("doc.kml"), doc);
  assert.deepEqual(files.get("files/icon.png"), new Uint8Array([1, 2, 3]));
  const only = unzipSafe(zip, KMZ_LIMITS, (n) => n.endsWith(".kml"));
  assert.deepEqual([...only.keys()], ["doc.kml"]);
  const stored = zipSync({ "a.txt": doc }, { level: 0 });
  assert.deepEqual(unzipSafe(stored, KMZ_LIMITS).get("a.txt"), doc);
});

Deno.test("an exceljs workbook passes the xlsx pre-check", async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Import");
  for (let i = 0; i < 1000; i++) ws.addRow([`35971004900${String(i).padStart(4, "0")}`, "Truck"]);
  const bytes = new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
  checkArchive(bytes, XLSX_LIMITS);
});

Deno.test("limits are enforced while inflating: size, entries, ratio; broken zips are invalid", async () => {
  const limits = { maxEntries: 10, maxTotalBytes: 8 * MB, maxRatio: 200 };
  // 64 MB of zeros claims its true size; refused after ~8 MB were produced.
  const bomb = await zipOf([{ name: "doc.kml", zeroMb: 64 }]);
  assert.ok(bomb.length < 100_000, `bomb is ${bomb.length} bytes`);
  assert.throws(() => unzipSafe(bomb, limits), refusedTooLarge);
  assert.throws(() => checkArchive(bomb, limits), refusedTooLarge);
  // Several entries each under the cap add up past it.
  const spread = await zipOf(
    Array.from({ length: 5 }, (_, i) => ({ name: `${i}.bin`, bytes: randomBytes(2 * MB) })),
  );
  assert.throws(() => checkArchive(spread, limits), refusedTooLarge);
  // Too many entries: refused from the directory, before anything is inflated.
  const many = zipSync(Object.fromEntries(
    Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, new Uint8Array(0)]),
  ));
  assert.throws(() => checkArchive(many, limits), refusedTooLarge);
  // 3 MB of zeros is under the size cap but ~1000:1, far past the ratio cap.
  const dense = await zipOf([{ name: "sheet.xml", zeroMb: 3 }]);
  assert.throws(() => checkArchive(dense, limits), refusedTooLarge);
  // Not a zip, truncated, corrupt data.
  assert.throws(() => checkArchive(new Uint8Array([1, 2, 3]), limits), ArchiveInvalid);
  const good = zipSync({ "a.txt": new TextEncoder().encode("abcdefgh".repeat(5000)) });
  assert.throws(() => checkArchive(good.subarray(0, good.length - 30), limits), ArchiveInvalid);
  // 0xff bits after the local header: deflate block type 3, which does not exist.
  const corrupt = good.slice();
  corrupt.fill(0xff, 30 + "a.txt".length, 30 + "a.txt".length + 20);
  assert.throws(() => checkArchive(corrupt, limits), ArchiveInvalid);
});

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let p = 0; p < n; p += 65536) crypto.getRandomValues(out.subarray(p, p + 65536));
  return out;
}

Deno.test("KMZ and xlsx uploads refuse a zip bomb and a many-entries zip without ballooning memory", async () => {
  const t = await testApp();
  try {
    const token = await t.adminToken();
    const upload = async (path: string, name: string, bytes: Uint8Array<ArrayBuffer>) => {
      const form = new FormData();
      form.append("file", new File([bytes], name, { type: TYPES[name.split(".")[1]] }));
      form.append("kind", "fence");
      const res = await t.app.request(path, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: res.status, json: await res.json() };
    };
    const KMZ = "/v3/new/geofence/import";
    const XLSX = "/v3/new/newEquipment/batchEditUpload";
    // Warm both routes (module loading, exceljs) so growth below is the archives' own.
    const kml = new TextEncoder().encode(
      `<kml><Placemark><name>A</name><Point><coordinates>114.05,22.54</coordinates></Point></Placemark></kml>`,
    );
    assert.equal((await upload(KMZ, "a.kmz", zipSync({ "doc.kml": kml }))).json.code, 10000);
    await upload(XLSX, "a.xlsx", await zipOf([{ name: "x.xml", bytes: kml }]));

    // 400 MB of zeros in each of the two entries a KMZ or an xlsx reader opens: ~800 KB.
    const bomb = await zipOf([
      { name: "doc.kml", zeroMb: 400 },
      { name: "xl/worksheets/sheet1.xml", zeroMb: 400 },
    ]);
    assert.ok(bomb.length < 1024 * 1024, `bomb is ${bomb.length} bytes`);
    const many = zipSync(Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`xl/f${i}.xml`, new Uint8Array(0)]),
    ));
    const before = Deno.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 5);
    for (const [path, name] of [[KMZ, "bomb.kmz"], [XLSX, "bomb.xlsx"]]) {
      for (const bytes of [bomb, many]) {
        const r = await upload(path, name, bytes);
        assert.equal(r.status, 200, `${path} ${JSON.stringify(r.json)}`);
        assert.equal(r.json.code, CATALOGUE.archiveTooLarge, `${path} ${JSON.stringify(r.json)}`);
        assert.match(r.json.msg, /at most \d+ MB and \d+ files/);
      }
      peak = Math.max(peak, Deno.memoryUsage().rss);
    }
    clearInterval(sample);
    const grown = (peak - before) / MB;
    // The caps are 20 MB (KMZ) and 40 MB (xlsx); the bomb would be 400 MB per entry.
    assert.ok(grown < 120, `rss grew by ${grown.toFixed(0)} MB`);
  } finally {
    await t.close();
  }
});

const TYPES: Record<string, string> = {
  kmz: "application/vnd.google-earth.kmz",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};
