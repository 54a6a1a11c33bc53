/**
 * The report export and the task centre against a real server process: simulated GT06
 * devices report a crafted day through the gateway (tests/helpers/report_fleet.ts), then
 * exports are asked for as a distributor whose units are miles and whose zone is Shanghai:
 * direct xlsx (read back with exceljs: headers, units, zone, totals, account groups), csv
 * (BOM, quoting), pdf in Chinese (CJK font embedded), the task path (over 200 devices; over
 * 5,000 rows) polled through /task/list and downloaded, the row cap's note, a sibling that
 * can neither see nor download the task, and a task cut short by a restart marked failed.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { Buffer } from "node:buffer";
import { CATALOGUE } from "../../lib/errors.ts";
import { REPORT_COLUMNS } from "../../modules/reports/model.ts";
import { imeisFor } from "../../modules/simulator/imei.ts";
import { devicePorts } from "../helpers/gateway.ts";
import { gt06Heartbeat, gt06Location, gt06Login } from "../helpers/gt06_frames.ts";
import { RawDevice } from "../helpers/raw_device.ts";
import { buildFleet, DEV1, DEV2, type Fleet, PASSWORD } from "../helpers/report_fleet.ts";
import { type ServerProcess, startServer } from "../helpers/server.ts";
import en from "../../locales/en/reports.json" with { type: "json" };

const ADMIN_PASSWORD = "Admin12345";
const MIN = 60_000;
const MI = 1.609344;
/** The device that reports 5,001 fixes (the row cap). */
const [DEV3] = imeisFor("86131", 1);
const params3: Record<string, unknown> = {};
type Row = Record<string, unknown>;

/** A logged-in caller that can read files as well as envelopes. */
class Caller {
  private constructor(readonly base: string, private readonly token: string) {}

  static async login(base: string, account: string): Promise<Caller> {
    const res = await fetch(`${base}/v3/new/account/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account, password: PASSWORD }),
    });
    const json = await res.json();
    assert.equal(json.code, 10000, JSON.stringify(json));
    return new Caller(base, json.data.token);
  }

  fetch(path: string, body?: unknown, lang = "en"): Promise<Response> {
    return fetch(`${this.base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${this.token}`,
        "x-locale": lang,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  // deno-lint-ignore no-explicit-any
  async json(path: string, body?: unknown): Promise<{ code: number; msg: string; data: any }> {
    const res = await this.fetch(path, body);
    assert.match(res.headers.get("content-type") ?? "", /json/);
    return await res.json();
  }

  // deno-lint-ignore no-explicit-any
  async data(path: string, body?: unknown): Promise<any> {
    const r = await this.json(path, body);
    assert.equal(r.code, 10000, `${path}: ${JSON.stringify(r)}`);
    return r.data;
  }
}

/** The request of a report over the crafted day (an hour before it to now). */
const range = (f: Fleet, imeis = [DEV1, DEV2]) => ({
  imeis,
  startTime: new Date(f.base - 60 * MIN).toISOString(),
  endTime: new Date().toISOString(),
});

/** "YYYY-MM-DD HH:mm:ss" in Shanghai (UTC+8, no daylight saving), computed here apart. */
const shanghai = (iso: unknown) =>
  new Date(Date.parse(String(iso)) + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string) {
  const end = Date.now() + 30_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`${what}: ${JSON.stringify(v).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function sheetRows(bytes: Uint8Array): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  book.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

/** RFC 4180: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"', i++);
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") (row.push(field), field = "");
    else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field), rows.push(row), row = [], field = "", i++;
    } else field += ch;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

/** Sends `count` fixes a second apart through the GT06 port; the heartbeat reply ends it. */
async function sendTrack(server: ServerProcess, imei: string, start: number, count: number) {
  const d = await RawDevice.open(devicePorts(server).gt06);
  try {
    await d.send(gt06Login(imei, 1));
    await d.take(10);
    const frames: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      frames.push(gt06Location({
        time: new Date(start + i * 1000),
        lat: 22.5 + i * 1e-5,
        lng: 114.05,
        speedKmh: 20,
        course: 0,
      }, 2 + (i % 60000)));
    }
    for (let i = 0; i < frames.length; i += 200) {
      await d.send(new Uint8Array(Buffer.concat(frames.slice(i, i + 200))));
    }
    await d.send(gt06Heartbeat(3));
    await d.take(10, 60_000); // the heartbeat's reply: every location before it is stored
  } finally {
    await d.done();
  }
}

/** Polls the task list until the task is done (or failed); answers its row. */
async function taskDone(api: Caller, id: string): Promise<Row> {
  const seen: number[] = [];
  const row = await eventually(
    async () => {
      const list = await api.data("/v3/new/task/list", { pageNum: 1, pageSize: 50 });
      const r = (list.list as Row[]).find((t) => t.id === id);
      if (r) seen.push(r.progress as number);
      return r;
    },
    (r) => !!r && r.status !== "running",
    `task ${id}`,
  );
  assert.equal(row!.status, "done", JSON.stringify(row));
  assert.equal(row!.progress, 100);
  assert.ok(seen.every((p, i) => i === 0 || p >= seen[i - 1]), `progress went back: ${seen}`);
  return row!;
}

Deno.test({
  name: "report export: xlsx, csv and pdf in the user's units, zone and language; tasks",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    let server = await startServer({ ADMIN_PASSWORD });
    try {
      const f = await buildFleet(server, ADMIN_PASSWORD);
      const api = await Caller.login(server.url, "repDistA");
      await api.data("/v3/new/account/updateProfile", {
        showUnit: "mi",
        timeZones: "Asia/Shanghai",
      });
      const trips = await eventually(
        () => api.data("/v3/new/report/trips", { ...range(f), pageNum: 1, pageSize: 100 }),
        (r) => r.total >= 1,
        "trips of DEV1",
      );
      const trip = trips.list[0] as Row;

      await t.step(
        "xlsx answered directly: headers, miles, mph, Shanghai time, totals",
        async () => {
          const res = await api.fetch("/v3/new/report/export", {
            report: "trips",
            params: range(f),
            format: "xlsx",
            exportType: 1,
          });
          assert.equal(res.status, 200);
          assert.match(res.headers.get("content-type")!, /spreadsheetml/);
          assert.match(
            res.headers.get("content-disposition")!,
            /filename\*=UTF-8''Trips_\d{8}-\d{6}\.xlsx/,
          );
          const rows = await sheetRows(new Uint8Array(await res.arrayBuffer()));
          const unit: Record<string, string> = {
            distance: " (mi)",
            speed: " (mph)",
            volume: " (L)",
          };
          assert.deepEqual(
            rows[0],
            REPORT_COLUMNS.trips.map((c) =>
              en.columns[c.key as keyof typeof en.columns] + (unit[c.kind] ?? "")
            ),
          );
          const h = (key: string) => REPORT_COLUMNS.trips.findIndex((c) => c.key === key);
          const first = rows[1];
          assert.equal(first[h("imei")], DEV1);
          assert.equal(first[h("startTime")], shanghai(trip.startTime));
          assert.equal(first[h("endTime")], shanghai(trip.endTime));
          assert.equal(first[h("startAddress")], trip.startAddress);
          assert.equal(
            first[h("distance")],
            Math.round(((trip.distance as number) / MI) * 100) / 100,
          );
          assert.equal(
            first[h("maxSpeed")],
            Math.round(((trip.maxSpeed as number) / MI) * 10) / 10,
          );
          assert.ok((first[h("distance")] as number) > 7, "12.5 km is about 7.8 mi");
          const d = trip.duration as number;
          assert.equal(
            first[h("duration")],
            `${Math.floor(d / 3600)}:${String(Math.floor(d / 60) % 60).padStart(2, "0")}:${
              String(d % 60).padStart(2, "0")
            }`,
          );
          assert.equal(rows.length, 1 + trips.total + 1, "header, rows, totals");
          assert.equal(rows.at(-1)![0], "Total");
        },
      );

      await t.step("exportType 0 puts a header per owning account before its rows", async () => {
        const parking = await api.data("/v3/new/report/parking", {
          ...range(f),
          pageNum: 1,
          pageSize: 100,
        });
        assert.ok(parking.total >= 2, JSON.stringify(parking));
        const res = await api.fetch("/v3/new/report/export", {
          report: "parking",
          params: range(f),
          format: "xlsx",
          exportType: 0,
        });
        const rows = await sheetRows(new Uint8Array(await res.arrayBuffer()));
        assert.deepEqual(rows[1], [`Account: repDistA (${parking.total} rows)`]);
        assert.deepEqual(
          rows.slice(2, 2 + parking.total).map((r) => r[1]).sort(),
          (parking.list as Row[]).map((r) => r.imei).sort(),
        );
      });

      await t.step("csv: UTF-8 BOM, RFC 4180 quoting of addresses with commas", async () => {
        const res = await api.fetch("/v3/new/report/export", {
          report: "trips",
          params: range(f),
          format: "csv",
          exportType: 1,
        });
        assert.match(res.headers.get("content-type")!, /text\/csv/);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
        const text = new TextDecoder().decode(bytes.slice(3));
        assert.ok(text.endsWith("\r\n"));
        const rows = parseCsv(text);
        assert.equal(rows[0].length, REPORT_COLUMNS.trips.length);
        const h = (key: string) => REPORT_COLUMNS.trips.findIndex((c) => c.key === key);
        assert.equal(rows[1][h("imei")], DEV1);
        assert.equal(rows[1][h("startAddress")], trip.startAddress);
        if (String(trip.startAddress).includes(",")) {
          assert.ok(text.includes(`"${trip.startAddress}"`), "an address with commas is quoted");
        }
        for (const r of rows.slice(1, -1)) assert.equal(r.length, rows[0].length, r.join("|"));
      });

      await t.step(
        "pdf for a Chinese-language user: a PDF with the CJK font embedded",
        async () => {
          const res = await api.fetch("/v3/new/report/export", {
            report: "trips",
            params: range(f),
            format: "pdf",
            exportType: 0,
          }, "zh");
          assert.equal(res.headers.get("content-type"), "application/pdf");
          assert.match(
            res.headers.get("content-disposition")!,
            /filename\*=UTF-8''%E8%A1%8C%E7%A8%8B_\d{8}-\d{6}\.pdf/, // 行程_…
          );
          const bytes = new Uint8Array(await res.arrayBuffer());
          const head = new TextDecoder("latin1").decode(bytes);
          assert.ok(head.startsWith("%PDF-"), head.slice(0, 20));
          assert.match(head, /\/BaseFont \/[A-Z]{6}\+NotoSans(CJKsc|SC)-Regular/);
          assert.ok(bytes.length > 5_000);
        },
      );

      const task: { id?: string } = {};
      await t.step("over 200 devices: a task with progress, then its file", async () => {
        const more = imeisFor("86130", 199);
        const me = await api.data("/v3/new/account/current");
        const imported = await api.data("/v3/new/newEquipment/importEquipment", {
          userId: me.userId,
          mcType: "GT06N",
          imeis: more,
        });
        assert.equal(imported.succeeded, 199, JSON.stringify(imported));
        const r = await api.data("/v3/new/report/export", {
          report: "trips",
          params: range(f, [DEV1, DEV2, ...more]),
          format: "xlsx",
          exportType: 1,
        });
        assert.match(r.taskId, /^[0-9a-z]{12}[0-9a-f]{12}$/);
        task.id = r.taskId;
        const row = await taskDone(api, r.taskId);
        assert.equal(row.type, "report");
        assert.equal(row.name, "Trips");
        assert.match(String(row.fileName), /^Trips_\d{8}-\d{6}\.xlsx$/);
        const res = await api.fetch(`/v3/new/task/download?id=${r.taskId}`);
        assert.equal(res.status, 200);
        assert.equal(
          res.headers.get("content-disposition"),
          `attachment; filename="${row.fileName}"; filename*=UTF-8''${row.fileName}`,
        );
        const rows = await sheetRows(new Uint8Array(await res.arrayBuffer()));
        assert.equal(rows.length, 1 + trips.total + 1);
        assert.equal(rows[1][1], DEV1);
      });

      await t.step("a sibling neither lists nor downloads another's task", async () => {
        const sibling = await Caller.login(server.url, "repDistB");
        const list = await sibling.data("/v3/new/task/list", { pageNum: 1, pageSize: 50 });
        assert.equal(list.total, 0);
        const stolen = await sibling.json(`/v3/new/task/download?id=${task.id}`);
        const unknown = await sibling.json(`/v3/new/task/download?id=${"0".repeat(24)}`);
        assert.equal(stolen.code, CATALOGUE.dataNotExists);
        assert.deepEqual(stolen, unknown, "the same answer as an id that never existed");
      });

      await t.step(
        "over 5,000 rows on a non-OpenStreetMap map: cut at 5,000, and says so",
        async () => {
          const me = await api.data("/v3/new/account/current");
          await api.data("/v3/new/newEquipment/importEquipment", {
            userId: me.userId,
            mcType: "GT06N",
            imeis: [DEV3],
          });
          const start = Math.floor(Date.now() / 1000) * 1000 - 3 * 3600_000;
          await sendTrack(server, DEV3, start, 5_001);
          Object.assign(params3, {
            imeis: [DEV3],
            startTime: new Date(start - MIN).toISOString(),
            endTime: new Date().toISOString(),
          });
          const params = params3;
          await eventually(
            () => api.data("/v3/new/report/trackDetails", { ...params, pageNum: 1, pageSize: 1 }),
            (r) => r.total === 5_001,
            "5,001 track points stored",
          );
          await api.data("/v3/new/account/updateProfile", { userMapType: "Google" });
          const r = await api.data("/v3/new/report/export", {
            report: "trackDetails",
            params,
            format: "csv",
            exportType: 1,
          });
          assert.ok(r.taskId, "more rows than a direct answer holds");
          await taskDone(api, r.taskId);
          const res = await api.fetch(`/v3/new/task/download?id=${r.taskId}`);
          const rows = parseCsv(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer())));
          assert.equal(rows.length, 1 + 5_000 + 1, "header, 5,000 rows, the note");
          assert.match(rows.at(-1)![0], /first 5,000 rows of 5,001/);
        },
      );

      await t.step("a task cut short by a restart is failed when the server is back", async () => {
        // A 5,000-row pdf takes the worker a second or more: the process dies before it ends.
        const r = await api.data("/v3/new/report/export", {
          report: "trackDetails",
          params: params3,
          format: "pdf",
          exportType: 1,
        });
        server.kill();
        server = await startServer({ ADMIN_PASSWORD }, { dataDir: server.dataDir });
        const again = await Caller.login(server.url, "repDistA");
        const list = await again.data("/v3/new/task/list", { pageNum: 1, pageSize: 50 });
        const row = (list.list as Row[]).find((x) => x.id === r.taskId);
        assert.equal(row?.status, "failed", JSON.stringify(row));
        const file = await again.json(`/v3/new/task/download?id=${r.taskId}`);
        assert.equal(file.code, CATALOGUE.taskNotReady);
      });
    } finally {
      await server.stop();
    }
  },
});
