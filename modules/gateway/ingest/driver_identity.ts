import type { StoredPosition } from "../../devices/model.ts";
import type { DriverIdentity } from "../events.ts";
import type { AttributeValue } from "../protocols/types.ts";

/**
 * The driver identity a decoded message carries, or null: JT/T 808 0x0702 (the decoder's
 * cardStatus 1 inserted / 2 removed, cardResult, driver, cardCode, cardAgency, cardValidity)
 * and the card id of RFID fixes (driverUniqueId: GT06 0x17/0x61/XT40, OsmAnd).
 */
export function driverIdentityOf(
  imei: string,
  time: number,
  attributes: Record<string, AttributeValue>,
  at: StoredPosition | null,
): DriverIdentity | null {
  const status = attributes.cardStatus;
  const where = { lat: at?.lat ?? null, lng: at?.lng ?? null };
  if (status === 1 || status === 2) {
    const cardNo = text(attributes.cardCode);
    return {
      id: identityId(imei, time, cardNo, status === 1 ? "in" : "out"),
      imei,
      time: new Date(time).toISOString(),
      type: status === 1 ? "in" : "out",
      cardNo,
      name: text(attributes.driver),
      issuer: text(attributes.cardAgency),
      certificateExpiry: bcdDate(text(attributes.cardValidity)),
      readResult: typeof attributes.cardResult === "number" ? attributes.cardResult : 0,
      ...where,
    };
  }
  const card = text(attributes.driverUniqueId);
  if (!card || /^0+$/.test(card)) return null;
  return {
    id: identityId(imei, time, card, "swipe"),
    imei,
    time: new Date(time).toISOString(),
    type: "swipe",
    cardNo: card,
    name: "",
    issuer: "",
    certificateExpiry: "",
    readResult: 0,
    ...where,
  };
}

const text = (v: AttributeValue | undefined) => (v === undefined ? "" : String(v).trim());

/** 0x0702 validity is BCD YYYYMMDD (read as hex digits). */
function bcdDate(hex: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(hex);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : "";
}

function identityId(imei: string, time: number, card: string, kind: string): string {
  return `${imei}-${time}-${kind}-${card}`.slice(0, 120);
}
