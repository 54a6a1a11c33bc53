/**
 * The isolation matrix of the other areas (devices, groups, geofences, commands, work modes,
 * alerts, wallet, messages, geocoder, white-label domains): every registry route whose input
 * names an account or a stored object (userId, targetUserId, groupId, id, ids, batchNo,
 * templateId, host) has an entry here, or names the test that covers it. A caller of the
 * sibling subtree (distB, and distB's virtual account) aiming at distA's subtree:
 * - is refused, or answers only about its own data;
 * - gets exactly the answer an object that does not exist gets (code, message and data once
 *   the id is masked), so it cannot even learn that the object exists;
 * - changes nothing in the store.
 * The owner's side of the same call succeeds, which shows the call was well formed. IMEIs are
 * covered route by route in modules/devices/existence_test.ts; the account routes and the
 * report routes in isolation_test.ts.
 */
import assert from "node:assert/strict";
import { createApp } from "../../app/app.ts";
import { CATALOGUE, type ErrorName } from "../../lib/errors.ts";
import type { RouteDef } from "../../lib/http/api.ts";
import { type TestApp, testApp } from "../../tests/helpers/harness.ts";
import { z } from "zod";
import { assertOk, buildTree, snapshot, type Tree } from "./test_support.ts";

/** Input fields that name an account or a stored object. */
const ID_KEYS = new Set([
  "userId",
  "targetUserId",
  "parentId",
  "groupId",
  "id",
  "ids",
  "batchNo",
  "templateId",
  "host",
]);

/** Routes whose ids are covered by another test (the test named), not by this matrix. */
const ELSEWHERE: Record<string, string> = {
  "/v3/new/alarm/process":
    "an alert is named by its device's IMEI: modules/devices/existence_test.ts",
  "/v3/new/alarm/mark": "an alert is named by its device's IMEI: modules/devices/existence_test.ts",
  "/v3/new/demo/approve":
    "administrators only (applications belong to no subtree): modules/demo/demo_test.ts",
  "/v3/new/demo/reject":
    "administrators only (applications belong to no subtree): modules/demo/demo_test.ts",
  "/v3/new/task/download":
    "tests/integration/reports_export_test.ts (a sibling's task answers like an unknown id)",
  "/v3/new/manual/download":
    "documents are the platform's, not a subtree's: every user reads them (modules/businesslog/help_api_test.ts)",
  "/v3/new/manual/delete":
    "administrators only (documents belong to no subtree): modules/businesslog/help_api_test.ts",
};

const IMEI_A = "359710049310018";
const IMEI_B = "359710049310026";
const NEW_IMEI = "359710049310034";
const FUTIAN = { lat: 22.5431, lng: 114.0579 };
const CIRCLE = { kind: "circle", center: FUTIAN, radius: 300 };
const CYCLES = [{ mode: "normal", syncInterval: 5, limitType: "unlimited" }];
const RULE = {
  name: "Shake",
  alarmType: "vibration",
  count: 3,
  unitMinutes: 10,
  content: "Vehicle disturbed",
};

/** A planned route (modules/fleet/paths*), and how a non-enterprise caller is refused. */
const ROUTE = {
  name: "Depot run",
  points: [FUTIAN, { lat: 22.55, lng: 114.07 }],
  offset: 100,
  weekdays: [1, 2, 3, 4, 5],
  startTime: "07:00",
  endTime: "19:00",
  imeis: [],
};
const FLEET_REFUSAL: ErrorName[] = ["enterpriseFeatureDenied", "permissionDenied"];
/** A fleet reminder (modules/fleet/reminders*). */
const REMINDER = {
  name: "Service",
  type: "maintenance",
  every: 6,
  unit: "month",
  advance: 14,
  startDate: "2026-01-01",
};

/** distA's objects (in its subtree) and distB's, made through the API. */
interface Fixture {
  t: TestApp;
  tree: Tree;
  ids: Tree["ids"];
  deviceGroupA: string;
  fenceA: string;
  fenceB: string;
  fenceGroupA: string;
  fenceGroupB: string;
  cmdTemplateA: string;
  wmTemplateA: string;
  batchA: string;
  ruleA: string;
  messageA: string;
  /** An announcement distA posted to its subtree (modules/announcements). */
  announcementA: string;
  /** A video share link distA made of its device (modules/video). */
  videoShareA: string;
  pushA: string;
  /** A free package distA offers its subtree (modules/packages). */
  packageA: string;
  alertSettingsA: Record<string, unknown>;
  xlsxTemplate: Uint8Array<ArrayBuffer>;
  /** A planned route of entA (fleet: enterprises only, so its owner is entA). */
  routeA: string;
  /** A fleet reminder of entA. */
  reminderA: string;
  /** A driver and a vehicle of entA (modules/fleet). */
  driverA: string;
  vehicleA: string;
  /** An automatic report of distA (modules/autoreports). */
  autoReportA: string;
}

type Input = Record<string, unknown>;

interface Entry {
  /** What the sibling sends: each input names distA's objects. */
  foreign: (f: Fixture) => Input[];
  /**
   * The refusals allowed; "answers" when the route answers with the caller's own data only
   * (then only "same as a missing object" and "nothing changes" are checked).
   */
  expect: ErrorName[] | "answers";
  /** The owner's call (default: the first foreign input, by distA); false: none. */
  own?: false | ((f: Fixture) => Input);
  /** Who the owner is (default distA): white-label domains belong to the administrator. */
  ownerToken?: (f: Fixture) => string;
  /** Multipart form instead of JSON (file parts are made from the fixture). */
  form?: (f: Fixture, input: Input) => FormData;
}

const answers = (path: string, input: (f: Fixture) => Input): [string, Entry] => [
  path,
  { foreign: (f) => [input(f)], expect: "answers" },
];
const refused = (
  path: string,
  foreign: (f: Fixture) => Input[],
  expect: ErrorName[] = ["permissionDenied"],
  extra: Partial<Entry> = {},
): [string, Entry] => [path, { foreign, expect, ...extra }];
const ofEntA = (more: Input = {}) => (f: Fixture) => [{ userId: f.ids.entA, ...more }];

const EQ = "/v3/new/newEquipment";
const GF = "/v3/new/geofence";

/** In run order: the deleting routes come last, their owner's call deletes for real. */
const MATRIX: [string, Entry][] = [
  // Devices and device groups.
  refused(`${EQ}/importEquipment`, ofEntA({ mcType: "GT06N", imeis: [NEW_IMEI] })),
  refused(`${EQ}/queryEquipmentList`, ofEntA()),
  refused(`${EQ}/getStatistics`, ofEntA()),
  refused(`${EQ}/getGroupList`, ofEntA()),
  refused(`${EQ}/addGroup`, ofEntA({ name: "intruders" })),
  refused(`${EQ}/updateGroupName`, (f) => [
    { userId: f.ids.entA, groupId: f.deviceGroupA, name: "renamed" },
    { userId: f.ids.distB, groupId: f.deviceGroupA, name: "renamed" },
  ], ["permissionDenied", "groupNotExists"]),
  refused(`${EQ}/topUserGroup`, (f) => [{ userId: f.ids.entA, groupId: f.deviceGroupA }]),
  refused(`${EQ}/setGroup`, (f) => [{ imeis: [IMEI_B], groupId: f.deviceGroupA }], [
    "groupNotExists",
  ], {
    // The device imported above; transferred below, which leaves the group empty to delete.
    own: (f) => ({ imeis: [NEW_IMEI], groupId: f.deviceGroupA }),
  }),
  refused(`${EQ}/getShowPlatformExpiration`, ofEntA()),
  refused(`${EQ}/setShowPlatformExpiration`, ofEntA({ show: 0 })),
  refused(`${EQ}/exportEquipment`, ofEntA()),
  refused(`${EQ}/importEquipmentFile`, ofEntA({ mcType: "GT06N" }), undefined, {
    form: (f, input) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(input)) form.set(k, String(v));
      form.set("file", new File([f.xlsxTemplate], "devices.xlsx", { type: XLSX }));
      return form;
    },
  }),
  refused(`${EQ}/transferEquipment`, (f) => [{ imeis: [IMEI_B], targetUserId: f.ids.entA }], [
    "permissionDenied",
  ], { own: (f) => ({ imeis: [NEW_IMEI], targetUserId: f.ids.userA }) }),

  // Geofences, landmarks and their groups.
  refused(`${GF}/list`, (f) => [{ kind: "fence", userId: f.ids.entA }]),
  refused(`${GF}/layer`, (f) => [{ kind: "fence", userId: f.ids.entA }]),
  refused(`${GF}/save`, (f) => [
    { kind: "fence", userId: f.ids.entA, name: "planted", shape: CIRCLE },
    { id: f.fenceA, kind: "fence", name: "taken over", shape: CIRCLE },
    // Its own new fence into A's group: the group answers like a missing one.
    { kind: "fence", name: "planted", shape: CIRCLE, groupId: f.fenceGroupA },
  ], ["permissionDenied", "fenceGroupError"]),
  refused(`${GF}/bind`, (f) => [{ id: f.fenceA, imeis: [IMEI_B] }], undefined, {
    own: (f) => ({ id: f.fenceA, imeis: [IMEI_A] }),
  }),
  refused(`${GF}/review`, (f) => [{ id: f.fenceA, review: "passed" }], undefined, {
    own: false,
  }),
  refused(`${GF}/group/list`, ofEntA()),
  refused(`${GF}/group/save`, (f) => [
    { userId: f.ids.entA, name: "planted" },
    { id: f.fenceGroupA, name: "taken over" },
  ]),
  refused(`${GF}/group/top`, (f) => [{ id: f.fenceGroupA, top: true }]),
  refused(
    `${GF}/group/move`,
    (f) => [
      { groupId: f.fenceGroupA, ids: [f.fenceB] },
      { groupId: f.fenceGroupB, ids: [f.fenceA] },
    ],
    undefined,
    { own: (f) => ({ groupId: f.fenceGroupA, ids: [f.fenceA] }) },
  ),

  // Commands and work modes.
  refused("/v3/new/command/batchDetail", (f) => [{ batchNo: f.batchA }], ["dataNotExists"]),
  answers("/v3/new/command/status", (f) => ({ batchNo: f.batchA })),
  answers("/v3/new/command/status/export", (f) => ({ batchNo: f.batchA, format: "csv" })),
  refused("/v3/new/command/template/save", (f) => [
    { id: f.cmdTemplateA, name: "taken over", code: "locate", params: {} },
  ], ["templateNotFound"]),
  refused("/v3/new/workMode/template/save", (f) => [
    { id: f.wmTemplateA, name: "taken over", cycles: CYCLES },
  ], ["templateNotFound"]),
  refused(
    "/v3/new/workMode/apply",
    (f) => [
      { templateId: f.wmTemplateA, imeis: [IMEI_B], sendType: "offline" },
    ],
    ["templateNotFound"],
    {
      own: (f) => ({ templateId: f.wmTemplateA, imeis: [IMEI_A], sendType: "offline" }),
    },
  ),
  answers("/v3/new/workMode/tasks", (f) => ({ batchNo: f.batchA })),

  // Alerts.
  refused("/v3/new/alarm/list", ofEntA()),
  refused("/v3/new/alarm/markAllRead", ofEntA()),
  refused("/v3/new/alarm/settings/get", ofEntA()),
  refused("/v3/new/alarm/settings/save", (f) => [{ ...f.alertSettingsA, userId: f.ids.entA }]),
  // The owner's side needs a mail server (modules/alerts tests cover it).
  refused("/v3/new/alarm/email/sendCode", ofEntA({ email: "fleet@example.com" }), undefined, {
    own: false,
  }),
  refused("/v3/new/alarm/email/verify", ofEntA({ email: "fleet@example.com", code: "123456" }), [
    "permissionDenied",
  ], { own: false }),
  refused("/v3/new/alarm/webhook/logs", ofEntA()),
  refused("/v3/new/alarm/broadcast/list", ofEntA()),
  refused("/v3/new/alarm/broadcast/save", (f) => [
    { userId: f.ids.entA, rule: RULE },
    { rule: { ...RULE, id: f.ruleA } },
  ], ["permissionDenied", "dataNotExists"]),

  // Messages, wallet, geocoder.
  ["/v3/new/message/mark", {
    foreign: (f) => [{ ids: [f.messageA], read: -1 }],
    expect: "answers",
    ownerToken: (f) => f.tree.tokens.entA,
  }],
  // Account info export: the owner's export takes entA's ten-minute slot, the sibling's none.
  refused("/v3/new/accountInfo/export", (f) => [{ id: f.ids.entA }]),
  refused("/v3/new/wallet/balance", ofEntA()),
  refused("/v3/new/wallet/ledger", ofEntA()),
  refused("/v3/new/wallet/allocate", (f) => [{ targetUserId: f.ids.entA, coins: 1 }]),
  refused("/v3/new/credits/balance", ofEntA()),
  refused("/v3/new/credits/log", ofEntA()),
  // In run order: the owner's share is what its unshare then ends.
  refused("/v3/new/credits/share", ofEntA()),
  refused("/v3/new/credits/unshare", ofEntA()),
  refused("/v3/new/wallet/log", ofEntA({ view: "business" })),
  refused("/v3/new/wallet/log/export", ofEntA({ view: "allocation" })),
  refused("/v3/new/package/update", (f) => [{ ...PACKAGE, id: f.packageA, coins: 1 }], [
    "packageNotFound",
    "permissionDenied",
  ]),
  // A package is bought by an account below the offering one.
  refused("/v3/new/package/buy", (f) => [{ id: f.packageA }], [
    "packageNotFound",
    "permissionDenied",
  ], {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  // Fleet route planning: the distributor siblings are refused as non-enterprises.
  refused("/v3/new/fleet/route/add", (f) => [{ ...ROUTE, userId: f.ids.entA }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
    own: (f) => ({ ...ROUTE, name: "Second run", userId: f.ids.entA }),
  }),
  refused(
    "/v3/new/fleet/reminder/add",
    (f) => [{ ...REMINDER, userId: f.ids.entA }],
    FLEET_REFUSAL,
    {
      ownerToken: (f) => f.tree.tokens.entA,
    },
  ),
  refused(
    "/v3/new/fleet/reminder/update",
    (f) => [{ ...REMINDER, id: f.reminderA }],
    FLEET_REFUSAL,
    {
      ownerToken: (f) => f.tree.tokens.entA,
    },
  ),
  refused("/v3/new/fleet/reminder/done", (f) => [{ id: f.reminderA }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  refused("/v3/new/fleet/route/list", (f) => [{ id: f.routeA }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  refused("/v3/new/fleet/route/update", (f) => [{ ...ROUTE, id: f.routeA }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  // Fleet drivers and vehicles: enterprise only, like the routes.
  refused(
    "/v3/new/fleet/driver/add",
    (f) => [{ name: "Intruder", userId: f.ids.entA }],
    FLEET_REFUSAL,
    {
      ownerToken: (f) => f.tree.tokens.entA,
    },
  ),
  refused("/v3/new/fleet/driver/update", (f) => [{ id: f.driverA, name: "X" }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  refused("/v3/new/fleet/driver/avatar", (f) => [{ id: f.driverA }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
    form: (_f, input) => {
      const form = new FormData();
      form.set("id", String(input.id));
      form.set("file", new File([PNG_1X1], "face.png", { type: "image/png" }));
      return form;
    },
  }),
  refused(
    "/v3/new/fleet/vehicle/add",
    (f) => [{ plate: "X-1", userId: f.ids.entA }],
    FLEET_REFUSAL,
    {
      ownerToken: (f) => f.tree.tokens.entA,
    },
  ),
  refused(
    "/v3/new/fleet/vehicle/update",
    (f) => [{ id: f.vehicleA, plate: "X-2" }],
    FLEET_REFUSAL,
    {
      ownerToken: (f) => f.tree.tokens.entA,
    },
  ),
  refused("/v3/new/geocoder/reverse", (f) => [{ points: [FUTIAN], userId: f.ids.entA }]),
  refused("/v3/new/geocoder/search", ofEntA({ q: "Depot" })),

  // White-label domains: the administrator's alone.
  refused("/v3/new/domain/save", () => [DOMAIN], undefined, {
    ownerToken: (f) => f.tree.tokens.admin,
  }),
  refused("/v3/new/domain/uploadImage", () => [{ field: "domainLogin" }], undefined, {
    ownerToken: (f) => f.tree.tokens.admin,
    form: (_f, input) => {
      const form = new FormData();
      form.set("field", String(input.field));
      form.set("file", new File([PNG_1X1], "logo.png", { type: "image/png" }));
      return form;
    },
  }),

  // Automatic reports: a sibling's id answers like an unknown one. Run now is not called by
  // the owner here (its run would change the store while later entries are checked).
  refused(
    "/v3/new/autoReport/add",
    (f) => [{ ...AUTO_REPORT, reportType: "parking", userId: f.ids.entA }],
  ),
  refused("/v3/new/autoReport/update", (f) => [{ ...AUTO_REPORT, id: f.autoReportA }], [
    "dataNotExists",
  ]),
  refused("/v3/new/autoReport/history", (f) => [{ id: f.autoReportA }], ["dataNotExists"]),
  refused("/v3/new/autoReport/runNow", (f) => [{ id: f.autoReportA }], ["dataNotExists"], {
    own: false,
  }),

  // Deleting routes last: the owner's call deletes.
  refused(
    `${EQ}/deleteGroup`,
    (f) => [{ userId: f.ids.entA, groupId: f.deviceGroupA }],
    undefined,
    {
      own: (f) => ({ userId: f.ids.entA, groupId: f.deviceGroupA }),
    },
  ),
  refused(`${GF}/delete`, (f) => [{ id: f.fenceA }]),
  refused(`${GF}/group/delete`, (f) => [{ id: f.fenceGroupA }]),
  refused("/v3/new/command/template/delete", (f) => [{ id: f.cmdTemplateA }], [
    "templateNotFound",
  ]),
  refused("/v3/new/workMode/template/delete", (f) => [{ id: f.wmTemplateA }], [
    "templateNotFound",
  ]),
  refused("/v3/new/alarm/broadcast/delete", (f) => [{ userId: f.ids.entA, id: f.ruleA }]),
  refused("/v3/new/domain/delete", () => [{ host: "fleet.example.com" }], undefined, {
    ownerToken: (f) => f.tree.tokens.admin,
  }),
  refused("/v3/new/package/delete", (f) => [{ id: f.packageA }], [
    "packageNotFound",
    "permissionDenied",
  ]),
  // Seen marks: another subtree's announcement ids are ignored (nothing changes).
  answers("/v3/new/announcement/seen", (f) => ({ ids: [f.announcementA] })),
  refused("/v3/new/announcement/delete", (f) => [{ id: f.announcementA }], [
    "dataNotExists",
    "permissionDenied",
  ]),
  refused("/v3/new/autoReport/delete", (f) => [{ ids: [f.autoReportA] }], ["dataNotExists"]),
  // Video links: another subtree's link answers like an unknown id.
  refused("/v3/new/video/share/revoke", (f) => [{ id: f.videoShareA }], ["notFound"]),
  // Open API push endpoints: another subtree's endpoint answers like an unknown one.
  refused("/v3/new/openapi/push/delete", (f) => [{ id: f.pushA }], ["pushEndpointNotFound"]),
  refused("/v3/new/fleet/route/delete", (f) => [{ ids: [f.routeA] }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  refused("/v3/new/fleet/reminder/delete", (f) => [{ ids: [f.reminderA] }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  refused("/v3/new/fleet/vehicle/delete", (f) => [{ ids: [f.vehicleA] }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
  refused("/v3/new/fleet/driver/delete", (f) => [{ ids: [f.driverA] }], FLEET_REFUSAL, {
    ownerToken: (f) => f.tree.tokens.entA,
  }),
];

/** An automatic report of distA's device (modules/autoreports). */
const AUTO_REPORT = {
  name: "Daily trips",
  reportType: "trips",
  frequency: "day",
  executionTime: "08:00",
  imeis: [IMEI_A],
  emails: ["fleet@example.com"],
};

/** An announcement for a day from now (modules/announcements). */
const ANNOUNCEMENT = {
  title: "Maintenance",
  body: "Sunday 02:00-03:00",
  startTime: new Date(Date.now() - 60_000).toISOString(),
  endTime: new Date(Date.now() + 86_400_000).toISOString(),
};

/** A package that costs and grants nothing (modules/packages). */
const PACKAGE = {
  name: "Starter",
  price: 1,
  currency: "USD",
  months: 0,
  smsCount: 0,
  coins: 0,
  discount: 1,
};

/** A white-label configuration (modules/domains). */
const DOMAIN = {
  host: "fleet.example.com",
  domainTitle: "Fleet One",
  defaultLanguage: "en",
  themeColor: "#112233",
  hoverColor: "#445566",
  selectedColor: "#aabbcc",
  view: "newlogin",
  resourceDomain: "",
  attr1: "",
  twoDimensionalCodeImage: "",
  domainLogin: "",
  loginPageIllustration: "",
  demoPageIllustration: "",
  siteIcon: "",
};

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** A 1×1 PNG. */
const PNG_1X1 = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (ch) => ch.charCodeAt(0),
);

/** Does a route's input (JSON body, query or form) have a field naming an account or object? */
function takesIds(def: RouteDef): boolean {
  const keys = (s: unknown): string[] => {
    const o = s as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] };
    if (!o || typeof o !== "object") return [];
    return [
      ...Object.entries(o.properties ?? {}).flatMap(([k, v]) => [k, ...keys(v)]),
      ...keys(o.items),
      ...(o.anyOf ?? []).flatMap(keys),
    ];
  };
  return [def.body, def.query, def.form].some((schema) =>
    schema &&
    keys(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })).some((k) =>
      ID_KEYS.has(k)
    )
  );
}

/** A made-up id no object has: a number far above the ids in use, or the same shape shifted. */
function ghostOf(id: string): string {
  if (/^\d{1,9}$/.test(id)) return String(900_000 + Number(id));
  const shift = (c: string) =>
    /\d/.test(c)
      ? String((Number(c) + 5) % 10)
      : /[a-z]/.test(c)
      ? String.fromCharCode(97 + (c.charCodeAt(0) - 97 + 13) % 26)
      : /[A-Z]/.test(c)
      ? String.fromCharCode(65 + (c.charCodeAt(0) - 65 + 13) % 26)
      : c;
  const keep = Math.floor(id.length / 2);
  return id.slice(0, keep) + [...id.slice(keep)].map(shift).join("");
}

async function makeFixture(t: TestApp): Promise<Fixture> {
  const tree = await buildTree(t);
  const { ids, tokens } = tree;
  const ok = async (path: string, body: unknown, token: string) => {
    const r = await t.call(path, body, token);
    assertOk(r);
    return r.json.data;
  };
  await ok(
    `${EQ}/importEquipment`,
    { userId: ids.entA, mcType: "GT06N", imeis: [IMEI_A] },
    tokens.admin,
  );
  await ok(
    `${EQ}/importEquipment`,
    { userId: ids.distB, mcType: "GT06N", imeis: [IMEI_B] },
    tokens.admin,
  );
  await ok("/v3/new/wallet/allocate", { targetUserId: ids.distA, coins: 10 }, tokens.admin);
  await ok(`${EQ}/addGroup`, { userId: ids.entA, name: "A's group" }, tokens.distA);
  const groups = await ok(`${EQ}/getGroupList`, { userId: ids.entA }, tokens.distA);
  const deviceGroupA =
    (groups as { id: string; name: string }[]).find((g) => g.name === "A's group")!.id;
  const fence = (token: string, userId: string) =>
    ok(`${GF}/save`, { kind: "fence", userId, name: "depot", shape: CIRCLE }, token);
  const fenceA = (await fence(tokens.distA, ids.entA)).id;
  const fenceB = (await fence(tokens.distB, ids.distB)).id;
  const fenceGroupA = (await ok(`${GF}/group/save`, { userId: ids.entA, name: "A" }, tokens.distA))
    .id;
  const fenceGroupB = (await ok(`${GF}/group/save`, { userId: ids.distB, name: "B" }, tokens.distB))
    .id;
  const cmdTemplateA = (await ok("/v3/new/command/template/save", {
    name: "A locate",
    code: "locate",
    params: {},
  }, tokens.distA)).id;
  const wmTemplateA = (await ok("/v3/new/workMode/template/save", {
    name: "A normal",
    cycles: CYCLES,
  }, tokens.distA)).id;
  const batchA = (await ok("/v3/new/command/batchSend", {
    imeis: [IMEI_A],
    code: "locate",
    params: {},
    sendType: "online",
  }, tokens.distA)).batchNo;
  const ruleA =
    (await ok("/v3/new/alarm/broadcast/save", { userId: ids.entA, rule: RULE }, tokens.distA))
      .id;
  // The administrator's import into entA left entA a message ("devices imported").
  const messages = await ok("/v3/new/message/list", { pageNum: 1, pageSize: 10 }, tokens.entA);
  const messageA = messages.list[0]?.id;
  assert.ok(messageA, "entA has a message");
  const alertSettingsA = await ok("/v3/new/alarm/settings/get", { userId: ids.entA }, tokens.distA);
  const template = await t.app.request(`${EQ}/importTemplate`, {
    headers: { authorization: `Bearer ${tokens.distA}` },
  });
  const xlsxTemplate = new Uint8Array(await template.arrayBuffer());
  return {
    t,
    tree,
    ids,
    deviceGroupA,
    fenceA,
    fenceB,
    fenceGroupA,
    fenceGroupB,
    cmdTemplateA,
    wmTemplateA,
    batchA,
    ruleA,
    messageA,
    alertSettingsA,
    xlsxTemplate,
    packageA: (await ok("/v3/new/package/add", PACKAGE, tokens.distA)).id,
    announcementA: (await ok("/v3/new/announcement/add", ANNOUNCEMENT, tokens.distA)).id,
    videoShareA: (await ok("/v3/new/video/share/create", {
      imei: IMEI_A,
      channel: 1,
      kind: "live",
      validHours: 24,
    }, tokens.distA)).id,
    pushA: (await ok("/v3/new/openapi/push/add", {
      url: "http://127.0.0.1:9/hook",
      kinds: ["alarm"],
    }, tokens.distA)).id,
    routeA: (await ok("/v3/new/fleet/route/add", ROUTE, tokens.entA)).id,
    reminderA: (await ok("/v3/new/fleet/reminder/add", REMINDER, tokens.entA)).id,
    driverA: (await ok("/v3/new/fleet/driver/add", { name: "Driver A" }, tokens.entA)).id,
    vehicleA: (await ok("/v3/new/fleet/vehicle/add", { plate: "A-1" }, tokens.entA)).id,
    autoReportA: (await ok("/v3/new/autoReport/add", AUTO_REPORT, tokens.distA)).id,
  };
}

/** One call as the route takes it (JSON, query or form); the answer's JSON or a file's text. */
async function send(
  f: Fixture,
  def: RouteDef,
  entry: Entry,
  input: Input,
  token: string,
): Promise<{ status: number; code: number | null; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let url = def.path;
  let body: BodyInit | undefined;
  if (entry.form) body = entry.form(f, input);
  else if (def.method === "get" || def.method === "delete") {
    url += "?" + new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
  } else {
    headers["content-type"] = "application/json";
    body = JSON.stringify(input);
  }
  const res = await f.t.app.request(url, { method: def.method.toUpperCase(), headers, body });
  const text = await res.text();
  const json = res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null;
  return { status: res.status, code: json?.code ?? null, text };
}

/** Every id of distA's subtree the matrix names (distB's own ids stay as they are), with a made-up twin of the same shape. */
function ghosts(f: Fixture): [string, string][] {
  const { distA, entA, userA, spareA, vA, vA2, vEntA } = f.ids;
  const named = [
    ...[distA, entA, userA, spareA, vA, vA2, vEntA],
    f.deviceGroupA,
    f.fenceA,
    f.fenceGroupA,
    f.cmdTemplateA,
    f.wmTemplateA,
    f.batchA,
    f.ruleA,
    f.messageA,
    f.packageA,
    f.announcementA,
    f.routeA,
    f.reminderA,
    f.driverA,
    f.vehicleA,
    f.autoReportA,
  ];
  return named.map((id) => [id, ghostOf(id)]);
}

Deno.test("area isolation matrix covers every route that takes an account or object id", async () => {
  const t = await testApp();
  try {
    let routes: RouteDef[] = [];
    createApp(t.services, (parts) => (routes = parts.api.routes));
    const other = routes.filter((r) =>
      !r.path.startsWith("/v3/new/account/") && !r.path.startsWith("/v3/new/report/")
    );
    const wanted = other.filter(takesIds).map((r) => r.path);
    const listed = MATRIX.map(([p]) => p);
    assert.equal(new Set(listed).size, listed.length, "one entry per route");
    for (const path of wanted) {
      assert.ok(listed.includes(path) || ELSEWHERE[path], `isolation entry for ${path}`);
    }
    for (const path of [...listed, ...Object.keys(ELSEWHERE)]) {
      assert.ok(routes.some((r) => r.path === path), `${path} is a registered route`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("area isolation matrix: the sibling subtree learns and changes nothing", async (s) => {
  // The push endpoint of the fixture lives on loopback.
  const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "on" });
  let routes: RouteDef[] = [];
  createApp(t.services, (parts) => (routes = parts.api.routes));
  try {
    const f = await makeFixture(t);
    const twins = ghosts(f);
    // Ids are compared as whole JSON strings: "3" is an id, the 3 inside 10000 is not.
    const mask = (text: string, ghost: boolean) =>
      twins.reduce((x, [id, g]) => x.replaceAll(JSON.stringify(ghost ? g : id), '"<id>"'), text);
    const toGhost = (input: Input): Input =>
      JSON.parse(
        twins.reduce(
          (x, [id, g]) => x.replaceAll(JSON.stringify(id), JSON.stringify(g)),
          JSON.stringify(input),
        ),
      );
    for (const [path, entry] of MATRIX) {
      await s.step(path, async () => {
        const def = routes.find((r) => r.path === path)!;
        for (const [who, token] of [["distB", f.tree.tokens.distB], ["vB", f.tree.tokens.vB]]) {
          for (const input of entry.foreign(f)) {
            const label = `${who} ${path} ${JSON.stringify(input)}`;
            const before = await snapshot(t.services.kv);
            const real = await send(f, def, entry, input, token);
            assert.equal(await snapshot(t.services.kv), before, `${label}: nothing may change`);
            const ghost = await send(f, def, entry, toGhost(input), token);
            assert.equal(await snapshot(t.services.kv), before, `${label} (ghost): no change`);
            if (entry.expect !== "answers") {
              assert.ok(
                entry.expect.some((e) => CATALOGUE[e] === real.code),
                `${label}: expected one of ${entry.expect}, got ${real.text}`,
              );
            }
            assert.equal(real.status, ghost.status, `${label}: same status as a missing object`);
            assert.equal(
              mask(real.text, false),
              mask(ghost.text, true),
              `${label}: same answer as a missing object`,
            );
          }
        }
        if (entry.own === false) return;
        const own = entry.own?.(f) ?? entry.foreign(f)[0];
        const token = entry.ownerToken?.(f) ?? f.tree.tokens.distA;
        const r = await send(f, def, entry, own, token);
        assert.equal(r.status, 200, `${path} by its owner: ${r.text.slice(0, 200)}`);
        assert.ok(
          r.code === null || r.code === CATALOGUE.success,
          `${path} by its owner: ${r.text.slice(0, 300)}`,
        );
      });
    }
  } finally {
    await t.close();
  }
});
