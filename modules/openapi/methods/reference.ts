/**
 * Reference entries of the device, location, track, alarm, instruction, fence and report
 * methods (description, private parameters, an example answer), for the `/route/rest`
 * reference page (modules/openapi/reference.ts spreads them). Times are UTC
 * `yyyy-MM-dd HH:mm:ss`; `map_type` GOOGLE (GCJ-02 in China), BAIDU (BD-09) or none (WGS84).
 */
export interface MethodReference {
  name: string;
  description: string;
  /** name → meaning (required unless marked optional). */
  params: Record<string, string>;
  /** Private parameters of the example call (common parameters come from the page). */
  example: Record<string, string>;
  /** Where the payload goes and an example of it. */
  answer: { result?: unknown; data?: unknown };
}

const TIME = "UTC yyyy-MM-dd HH:mm:ss";
const MAP = "optional: GOOGLE | BAIDU (coordinates converted); WGS84 when absent";

export const METHOD_REFERENCE: MethodReference[] = [
  {
    name: "jimi.user.device.list",
    description: "The devices of an account (the caller's own, or `target` of its subtree).",
    params: { target: "optional: login name of an account of the caller's subtree" },
    example: {},
    answer: {
      result: [{
        imei: "359710049100011",
        deviceName: "Truck 1",
        mcType: "GT06N",
        sim: "",
        expiration: "2027-11-26 00:00:00",
        activationTime: "2026-11-01 08:00:00",
        vehicleNumber: "",
        driverName: "",
        enabledFlag: 1,
        deviceGroupId: "0",
        deviceGroup: "",
      }],
    },
  },
  {
    name: "jimi.track.device.detail",
    description: "One device's detail, with its owner account.",
    params: { imei: "15 digits" },
    example: { imei: "359710049100011" },
    answer: { result: { imei: "359710049100011", deviceName: "Truck 1", account: "fleet1" } },
  },
  {
    name: "jimi.open.device.update",
    description: "Edits a device's name, SIM, remark and vehicle/driver fields (editData).",
    params: {
      imei: "15 digits",
      device_name: "optional",
      sim: "optional",
      remark: "optional",
      vehicle_number: "optional",
      vehicle_models: "optional",
      car_frame: "optional",
      driver_name: "optional",
      driver_phone: "optional",
      engine_number: "optional",
    },
    example: { imei: "359710049100011", device_name: "Truck 1" },
    answer: { result: null },
  },
  {
    name: "jimi.open.device.move",
    description: "Moves devices to another account of the caller's subtree (editData).",
    params: { imeis: "comma-separated, at most 1000", target: "login name of the account" },
    example: { imeis: "359710049100011", target: "customer7" },
    answer: { result: null },
  },
  {
    name: "jimi.user.device.expiration.update",
    description: "Sets the user expiry of devices (its date is used; editData).",
    params: { imeis: "comma-separated, at most 1000", user_expiration: TIME },
    example: { imeis: "359710049100011", user_expiration: "2027-06-30 23:59:59" },
    answer: { result: null },
  },
  {
    name: "jimi.device.location.get",
    description: "The latest location of at most 100 devices; one IMEI outside: 1002.",
    params: { imeis: "comma-separated, 1-100", map_type: MAP },
    example: { imeis: "359710049100011,359710049100029", map_type: "GOOGLE" },
    answer: {
      result: [{
        imei: "359710049100011",
        deviceName: "Truck 1",
        status: "1",
        lat: 22.54,
        lng: 114.06,
        posType: "GPS",
        gpsTime: "2026-11-26 21:00:00",
        hbTime: "2026-11-26 21:00:05",
        speed: "36",
        direction: "90",
        accStatus: "1",
        gpsNum: "9",
      }],
    },
  },
  {
    name: "jimi.user.device.location.list",
    description: "The latest location of every device of an account.",
    params: { target: "optional: login name", map_type: MAP },
    example: {},
    answer: { result: [{ imei: "359710049100011", lat: 22.54, lng: 114.06 }] },
  },
  {
    name: "jimi.device.location.URL.share",
    description: "A public live-location link of a device, relative to this server (editData).",
    params: { imei: "15 digits", expire_time: "optional: hours, 1-720 (24)" },
    example: { imei: "359710049100011", expire_time: "24" },
    answer: {
      result: { url: "/monitorShare?token=…", expireTime: "2026-11-27 21:00:00" },
    },
  },
  {
    name: "jimi.device.track.list",
    description:
      "One device's located fixes in time order; up to 31 days per call, any age we hold.",
    params: { imei: "15 digits", begin_time: TIME, end_time: TIME, map_type: MAP },
    example: {
      imei: "359710049100011",
      begin_time: "2026-11-19 00:00:00",
      end_time: "2026-11-26 00:00:00",
    },
    answer: {
      result: [{
        lat: 22.54,
        lng: 114.06,
        gpsTime: "2026-11-19 00:00:10",
        direction: 90,
        gpsSpeed: 36,
        posType: "GPS",
        satellite: 9,
        altitude: 20,
        accStatus: 1,
      }],
    },
  },
  {
    name: "jimi.device.track.mileage",
    description: "Distance driven trip by trip (km) of up to 100 devices, 31 days per call.",
    params: { imeis: "comma-separated, 1-100", begin_time: TIME, end_time: TIME },
    example: {
      imeis: "359710049100011",
      begin_time: "2026-11-25 00:00:00",
      end_time: "2026-11-26 00:00:00",
    },
    answer: {
      data: [{
        imei: "359710049100011",
        startTime: "2026-11-25 07:58:00",
        endTime: "2026-11-25 08:40:10",
        distance: 23.4,
        runTimeSecond: 2530,
        avgSpeed: 33.3,
        maxSpeed: 71,
      }],
    },
  },
  {
    name: "jimi.device.alarm.list",
    description:
      "A device's alarms, newest first, over any range (no month cap), paged (page_size ≤ 1000).",
    params: {
      imei: "15 digits",
      begin_time: TIME,
      end_time: TIME,
      alert_type_id: "optional: an alert type (sos, overspeed, geofenceEnter…)",
      page_no: "optional (1)",
      page_size: "optional (100, at most 1000)",
      map_type: MAP,
    },
    example: {
      imei: "359710049100011",
      begin_time: "2026-01-01 00:00:00",
      end_time: "2026-11-26 00:00:00",
    },
    answer: {
      result: [{
        imei: "359710049100011",
        deviceName: "Truck 1",
        alertTypeId: "sos",
        alarmTypeName: "SOS",
        alarmTime: "2026-11-25 10:00:00",
        lat: 22.54,
        lng: 114.06,
      }],
      data: { total: 1, pageNo: 1, pageSize: 100 },
    },
  },
  {
    name: "jimi.open.instruction.list",
    description: "The instructions a device's model accepts.",
    params: { imei: "15 digits" },
    example: { imei: "359710049100011" },
    answer: {
      result: [{
        id: "locate",
        orderName: "Locate now",
        orderParams: [],
        passwordRequired: false,
      }],
    },
  },
  {
    name: "jimi.open.instruction.send",
    description:
      "Sends an instruction (sendCommands): 12001 unknown, 12002 offline, 12003 not sent, 12005 unsupported.",
    params: {
      imei: "15 digits",
      inst_param_json:
        'JSON: {"inst_id": "locate", "params": {}, "is_cover": false, "send_type": "online", "password": "…"}',
    },
    example: { imei: "359710049100011", inst_param_json: '{"inst_id":"locate"}' },
    answer: { result: { id: "…", imei: "359710049100011", status: "sending" } },
  },
  {
    name: "jimi.open.instruction.result",
    description: "A device's recent commands (50), or one by `id`: 12001 unknown, 12004 timed out.",
    params: { imei: "15 digits", id: "optional: the id send answered" },
    example: { imei: "359710049100011" },
    answer: {
      result: [{ id: "…", status: "succeeded", reply: "…", replyTime: "2026-11-26 21:00:02" }],
    },
  },
  {
    name: "jimi.open.platform.fence.create",
    description: "Creates a fence of the caller's account (editData); 1114 for a taken name.",
    params: {
      fence_name: "at most 50",
      fence_type: "circle | polygon",
      geom: "circle: lat,lng; polygon: lat,lng;lat,lng;…",
      radius: "circle: metres (200-5000)",
      fence_color: "optional: #rrggbb",
      description: "optional",
      alarm_type: "optional: in | out | in,out (in,out)",
      imeis: "optional: bound devices (all when absent)",
      map_type: "optional: the datum of geom",
    },
    example: {
      fence_name: "Depot",
      fence_type: "circle",
      geom: "22.54,114.06",
      radius: "500",
    },
    answer: { result: { fenceId: "…" } },
  },
  {
    name: "jimi.open.platform.fence.delete",
    description: "Deletes a fence of the caller's subtree (editData).",
    params: { fence_id: "the id create answered" },
    example: { fence_id: "…" },
    answer: { result: null },
  },
  {
    name: "jimi.open.platform.fence.list",
    description: "The caller's fences (those watching `imei` when given).",
    params: { imei: "optional", map_type: MAP },
    example: {},
    answer: {
      result: [{
        fenceId: "…",
        fenceName: "Depot",
        fenceType: "circle",
        geom: "22.54,114.06",
        radius: 500,
        alarmType: "in,out",
        imeis: "",
      }],
    },
  },
  {
    name: "jimi.open.device.fence.create",
    description: "A circle fence bound to one device, checked by the platform (editData).",
    params: {
      imei: "15 digits",
      fence_name: "at most 50",
      lat: "centre",
      lng: "centre",
      radius: "metres (200-5000)",
      alarm_type: "optional: in | out | in,out",
      map_type: "optional: the datum of lat/lng",
    },
    example: {
      imei: "359710049100011",
      fence_name: "Yard",
      lat: "22.5",
      lng: "114.05",
      radius: "300",
    },
    answer: { result: { fenceId: "…" } },
  },
  {
    name: "jimi.open.device.fence.delete",
    description: "Deletes a device's fence (editData).",
    params: { imei: "15 digits", fence_id: "the id create answered" },
    example: { imei: "359710049100011", fence_id: "…" },
    answer: { result: null },
  },
  {
    name: "jimi.device.report.parking",
    description: "A device's stops (viewReports), 31 days per call.",
    params: { imei: "15 digits", begin_time: TIME, end_time: TIME, map_type: MAP },
    example: {
      imei: "359710049100011",
      begin_time: "2026-11-25 00:00:00",
      end_time: "2026-11-26 00:00:00",
    },
    answer: {
      data: [{
        imei: "359710049100011",
        startTime: "2026-11-25 12:00:00",
        endTime: "2026-11-25 13:10:00",
        durSecond: 4200,
        lat: 22.54,
        lng: 114.06,
        accStatus: 0,
      }],
    },
  },
  {
    name: "jimi.report.trips",
    description: "A device's trips (viewReports), 31 days per call.",
    params: { imei: "15 digits", begin_time: TIME, end_time: TIME, map_type: MAP },
    example: {
      imei: "359710049100011",
      begin_time: "2026-11-25 00:00:00",
      end_time: "2026-11-26 00:00:00",
    },
    answer: {
      result: [{
        imei: "359710049100011",
        startTime: "2026-11-25 07:58:00",
        endTime: "2026-11-25 08:40:10",
        distance: 23.4,
        maxSpeed: 71,
        harshBraking: 0,
      }],
    },
  },
];
