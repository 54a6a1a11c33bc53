import type { Account } from "./model.ts";

/** Spec §4 unit normalisation, applied whenever user info is handed out. */
export function normalizeUnits(
  raw: { capacity?: string; showUnit?: string; temperature?: string },
) {
  const capacity = /^(g|gal)$/i.test(raw.capacity ?? "") ? "GAL" : "L";
  const unit = (raw.showUnit ?? "").toLowerCase();
  const [showUnit, speed] = unit === "mi"
    ? ["mi", "mph"]
    : unit === "knot" || unit === "nmi"
    ? ["nmi", "knot"]
    : ["km", "km/h"];
  const temperature = /^°?f$/i.test(raw.temperature ?? "") ? "°F" : "°C";
  return { capacity, showUnit, speed, temperature };
}

/** The current-user fields of spec §3. */
export function currentUserInfo(self: Account, owner: Account, parent: Account | null) {
  const isVirtual = !!self.virtual;
  const scope = self.virtual?.scope;
  return {
    id: self.id,
    userId: owner.id,
    parentId: owner.parentId,
    fullParentId: owner.fullParentId,
    nodeId: owner.nodeId,
    nickName: self.nickName,
    account: self.account,
    accountType: owner.accountType ?? -1,
    isBatchSendIns: owner.permissions.isBatchSendIns,
    isBatchSendFm: owner.permissions.isBatchSendFm,
    updateDevFlag: owner.permissions.updateDevFlag,
    appUpdateDevFlag: owner.permissions.appUpdateDevFlag,
    webLogin: owner.permissions.webLogin,
    appLogin: owner.permissions.appLogin,
    viewReportFlag: owner.permissions.viewReportFlag,
    language: self.language,
    userFictitiousFlag: isVirtual,
    instructionsFlag: isVirtual ? scope!.instructionsFlag : 1,
    updateFlag: isVirtual ? scope!.updateFlag : 1,
    videoFlag: isVirtual ? scope!.videoFlag : owner.permissions.videoFlag,
    ...normalizeUnits(self.units),
    googleMapKey: owner.googleMapKey,
    userMapType: self.userMapType || "OpenStreetMap",
    parentGoogleMapKeyFlag: parent?.shareGoogleMapKey && parent.googleMapKey ? 1 : 0,
    shareGoogleMapKey: owner.shareGoogleMapKey ?? 0,
    timeZones: self.timeZones,
    coinNumber: owner.coinNumber,
    soundFlag: self.alarmSoundFlag,
    expiration: owner.expiration,
    email: self.email,
    phone: self.phone,
    contact: self.contact,
    companyName: self.companyName,
    country: self.country,
  };
}
