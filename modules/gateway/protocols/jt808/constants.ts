/** JT/T 808 message ids used here (terminal → platform and platform → terminal). */
export const MsgId = {
  // Terminal → platform (standard)
  TERMINAL_GENERAL_REPLY: 0x0001,
  HEARTBEAT: 0x0002,
  LOGOUT: 0x0003,
  REGISTER: 0x0100,
  AUTH: 0x0102,
  PARAMETERS_REPLY: 0x0104,
  TERMINAL_ATTRIBUTES: 0x0107,
  LOCATION: 0x0200,
  LOCATION_QUERY_REPLY: 0x0201,
  WAYBILL: 0x0701,
  DRIVER_IDENTITY: 0x0702,
  LOCATION_BATCH: 0x0704,
  TRANSPARENT: 0x0900,
  // Terminal → platform (vendor extensions seen in the field)
  TIME_SYNC_REQUEST: 0x0109,
  LOCATION_BATCH_2: 0x0210,
  TIMEZONE_SYNC: 0x1007,
  TEXT_REPLY_UTF16: 0x1300,
  ACCELERATION: 0x2070,
  LOCK_LOCATION: 0x5501,
  LOCK_LOCATION_BLIND: 0x5502,
  TEXT_REPORT: 0x6006,
  // Platform → terminal
  PLATFORM_GENERAL_REPLY: 0x8001,
  REGISTER_REPLY: 0x8100,
  TERMINAL_CONTROL: 0x8105,
  TIME_SYNC_REPLY: 0x8109,
  TEXT_MESSAGE: 0x8300,
  LOCK_GENERAL_REPLY: 0x4401,
} as const;

/** Result codes of the general replies. */
export const Result = {
  SUCCESS: 0,
  FAILURE: 1,
  MESSAGE_ERROR: 2,
  NOT_SUPPORTED: 3,
  ALARM_ACK: 4,
} as const;
