/**
 * The error catalogue: every business refusal the API can give, with its stable code.
 *
 * Codes named by the spec keep their meaning (10004, 10005, 10006, 405, 30039, 20004,
 * 20005, 20010, 20225, transfer errors 1-5). Every other message gets its own code here,
 * grouped by area; never renumber an entry, only add. Ranges: 40xxx accounts and session,
 * 41xxx money, 42xxx devices, 43xxx commands, 44xxx monitor, 45xxx geofences and alerts,
 * 46xxx notifications (mail, webhooks), 49xxx general. The translated text lives in
 * locales/<lang>.json under "errors.<name>".
 */
export const CATALOGUE = {
  // Spec-defined codes.
  success: 10000,
  showData: 10004,
  tokenInvalid: 10005,
  loginTimeout: 10006,
  forcedLogout: 405,
  silent: 30039,
  devicesStillBound: 20004,
  subAccountsExist: 20005,
  miCoinsInBalance: 20010,
  contactServiceProvider: 20225,
  transferToSelf: 1,
  transferParentToChild: 2,
  transferNotUnderLoginAccount: 3,
  transferAlreadyUnderTarget: 4,
  transferParentChildRelation: 5,

  // Account and session (40xxx).
  accountExists: 40001,
  accountNotExists: 40002,
  userNameMissing: 40003,
  wrongCredentials: 40004,
  authenticationFailed: 40005,
  loginDenied: 40006,
  loginTooFrequent: 40007,
  requestTooOften: 40008,
  captchaIncorrect: 40009,
  verificationCodeError: 40010,
  verificationCodeNotSent: 40011,
  wrongOldPassword: 40012,
  emailNotSet: 40013,
  invalidRemoteIp: 40014,
  accountExpired: 40015,
  virtualCannotChangePassword: 40016,
  endUserCannotCreate: 40017,
  enterpriseTypeLocked: 40018,
  enterpriseFeatureDenied: 40019,
  expiryAfterParent: 40020,
  accountTypeNotAllowed: 40021,
  multiNodeAccount: 40022,
  transferRunning: 40023,
  crossNodeRefused: 40024,
  superiorInvalid: 40025,
  passwordMismatch: 40026,
  exportTooOften: 40027,
  passwordTooManyTries: 40028,
  // Demo accounts, embed keys, own e-mail (W4, issue 18).
  demoAlreadyPending: 40050,
  demoAlreadyDecided: 40051,
  demoLinkInvalid: 40052,
  embedKeyInvalid: 40053,
  emailUnchanged: 40054,
  // White label (40040+).
  imageDimensionsInvalid: 40040,

  // Money (41xxx).
  miCoinsInsufficient: 41001,
  rechargeCardsInsufficient: 41002,
  coinsToSelf: 41003,
  noRateConfigured: 41004,
  unitPriceError: 41005,
  // Recharge card codes and packages (W1, issue 18).
  licenceMissing: 41010,
  licenceUsed: 41011,
  licenceWrongType: 41012,
  cannotSellToSelf: 41013,
  cardCodesInvalid: 41014,
  packageNotFound: 41015,
  // Credits (W2, issue 18).
  creditsInsufficient: 41020,
  creditsTooFewCoins: 41021,
  creditShareLimit: 41022,
  creditAlreadyShared: 41023,
  creditNotShared: 41024,

  // General (49xxx).
  operationFailed: 49001,
  systemBusy: 49002,
  permissionDenied: 49003,
  illegalParameter: 49004,
  dataExists: 49005,
  dataNotExists: 49006,
  invalidMapsKey: 49007,
  getDataFailed: 49008,
  queryFailed: 49009,
  responseTimeout: 49010,
  noData: 49011,
  payloadTooLarge: 49012,
  notFound: 49013,
  csrfRejected: 49014,
  archiveTooLarge: 49015,

  // Devices (42xxx) — used by the gateway and devices modules.
  imeiInvalid: 42001,
  imeiEmpty: 42002,
  imeiRepeated: 42003,
  imeiNotExists: 42004,
  modelNotExists: 42005,
  deviceNotSupported: 42006,
  deviceExpired: 42007,
  deviceDisabled: 42008,
  deviceBusy: 42009,
  deviceOffline: 42010,
  devicePoweredOff: 42011,
  deviceNoPermission: 42012,
  notRegisteredInRoutingTable: 42013,
  quantityLimitExceeded: 42014,
  imeiExists: 42015,
  groupNameExists: 42016,
  deviceDefaultGroupLocked: 42017,
  groupHasDevices: 42018,
  groupAccountMismatch: 42019,
  vinFormatWarning: 42020,
  sensorNameExists: 42021,
  sensorMacExists: 42022,
  tankNameExists: 42023,
  tankIdExists: 42024,
  fuelSensorTypeMixed: 42025,
  expiryBeyondSuperior: 42026,
  expiryBeforeActivation: 42027,
  expiryInactiveDevice: 42028,
  expiryOwnStock: 42029,
  platformTermTooLong: 42030,
  activationNotAwaiting: 42031,
  temperatureRange: 42032,
  overSpeedPair: 42033,
  mileageNeedsCurrent: 42034,
  accOnNeedsCurrent: 42035,
  ringtoneUnsupported: 42036,
  fileTooLarge: 42037,
  fileTypeInvalid: 42038,
  tooManyImages: 42039,
  appAccountInvalid: 42040,
  exportTooLarge: 42041,
  spreadsheetInvalid: 42042,
  groupNotExists: 42043,
  deviceMovedOut: 42044,
  renewalTypeWrong: 42045,
  appBindNotAllowed: 42046,

  // Commands (43xxx).
  commandUnsupported: 43001,
  commandMalformed: 43002,
  commandPasswordIncorrect: 43003,
  modelHasNoInstructions: 43004,
  commandSendError: 43005,
  offlineCommandExists: 43006,
  commandSetupFailed: 43007,
  commandTemplateLimit: 43008,
  commandTemplateNameExists: 43009,
  batchSendNotAllowed: 43010,
  workModeTemplateLimit: 43011,
  workModeInvalid: 43012,
  noDevicesChosen: 43013,
  templateNotFound: 43014,

  // Monitor (44xxx).
  shareLinkExpired: 44001,
  playbackRangeTooLong: 44002,
  startAfterEnd: 44003,
  shareLinkNotFound: 44004,
  shareHoursInvalid: 44005,
  // Common addresses and area car-finding (W4, issue 18).
  commonAddressLimit: 44010,
  areaRadiusInvalid: 44011,
  // Geofences and alerts (45xxx).
  fenceLimitExceeded: 45001,
  landmarkLimitExceeded: 45002,
  blackCarLimitExceeded: 45003,
  defaultGroupLocked: 45004,
  fenceGroupInUse: 45005,
  fenceGroupOwnersDiffer: 45006,
  fenceGroupError: 45007,
  fenceGroupNameExists: 45008,
  blackCarPassedLocked: 45009,
  kmlFileRequired: 45010,
  kmlInvalid: 45011,
  fenceDeviceOtherUser: 45012,
  ruleDeviceOtherUser: 45013,

  // Notifications (46xxx).
  emailNotVerified: 46001,
  mailSendFailed: 46002,
  mailServerUnavailable: 46003,
  emailVerifySucceeded: 46004,
  emailVerifyFailed: 46005,
  webhookAddressRefused: 46006,
  // Open API push endpoints (issue 22, O2).
  pushEndpointLimit: 46021,
  pushEndpointNotFound: 46022,
  // Report queries (47001-47099).
  reportStartInFuture: 47001,
  reportBeyondLookback: 47002,
  // Report export and task centre (47100+; 47001-47099 are the report queries').
  taskNotReady: 47101,
  pdfFontMissing: 47102,
  exportTasksRunning: 47103,
  // Automatic reports (47201-47299), issue 21 S3.
  autoReportTypeExists: 47201,
  autoReportFixed: 47202,
  autoReportDevicesMissing: 47203,
  autoReportTooManyDevices: 47204,
  autoReportPeriodTooLong: 47205,
  autoReportRunning: 47206,
  autoReportNoDevices: 47207,
  // Fleet route planning (48101-48199) and reminders (48201-48299), issue 19 F2.
  routeGenerationFailed: 48101,
  routeTooLong: 48102,
  routePointsLimit: 48103,
  routeTimeInvalid: 48104,
  routeNameExists: 48105,
  reminderAdvanceTooLong: 48201,
  reminderIntervalMissing: 48202,
  // Fleet drivers, vehicles and RFID swipes (48001-48099), issue 19 F1.
  rfidCardInUse: 48001,
  driverExpiryBeforeRegister: 48002,
  vehicleDeviceBound: 48003,
  vinSuspicious: 48004,
  insuranceExpireBeforeEffective: 48005,
  driverSheetInvalid: 48006,
  // Video (44501-44599), issue 20 V2.
  videoFileNotFound: 44501,
  videoDownloadFailed: 44502,
  videoPlaybackError: 44503,
  videoResponseTimeout: 44504,
  videoLinkExpired: 44505,
  videoNotSupported: 44506,
  videoPlayLimit: 44507,
  videoBatchTooLarge: 44508,
  videoRangeInvalid: 44509,
  /** A live answer's audioNote: the channel's G.711/G.726 audio is dropped (issue 20, V1). */
  videoAudioNotPlayable: 44590,
} as const;

export type ErrorName = keyof typeof CATALOGUE;

/** Codes on which the console logs the user out (spec §8). */
export const LOGOUT_CODES: readonly number[] = [10005, 10006, 405];

/** A business refusal: answered as HTTP 200 `{code, msg}` unless `status` says otherwise. */
export class BizError extends Error {
  constructor(
    readonly key: ErrorName,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
    readonly status: 200 | 400 | 401 | 403 | 404 | 413 | 429 = 200,
  ) {
    super(key);
  }
}

export const refuse = (
  name: ErrorName,
  params?: Record<string, string | number>,
  data?: unknown,
): never => {
  throw new BizError(name, params, data);
};
