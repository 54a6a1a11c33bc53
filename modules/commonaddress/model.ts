/**
 * A device's common addresses (business spec: commonAddressList items — color default
 * #3b7aff, addressName, radius, latitude, longitude): named places drawn around the device
 * on the monitor map and listed in its device dialog. Browser code imports this file only.
 */
export const COMMON_ADDRESS_MAX = 20;
export const COMMON_ADDRESS_COLOR = "#3b7aff";
export const COMMON_ADDRESS_RADIUS = { min: 10, max: 10_000, default: 200 } as const;
export const COMMON_ADDRESS_NAME_MAX = 50;

export interface CommonAddress {
  color: string;
  addressName: string;
  /** Metres. */
  radius: number;
  latitude: number;
  longitude: number;
}
