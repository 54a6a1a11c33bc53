/**
 * Set-up shared by the fleet tests: an enterprise account under the admin, owning GT06
 * devices, and (for Chromium tests) the wait for a hydrated page.
 */
import type { Page } from "playwright-core";
import { ApiClient } from "./api_client.ts";
import { mailText, type startSmtp } from "./smtp.ts";

export interface EnterpriseSpec {
  adminPassword: string;
  account: string;
  password: string;
  imeis: string[];
  nickName?: string;
  /** The devices' model (default GT06N). */
  mcType?: string;
  /** The enterprise's time zone (default: inherited from the admin, UTC). */
  timeZones?: string;
}

/** Creates the enterprise (type 9) under the admin, imports its devices and logs it in. */
export async function enterpriseWithDevices(url: string, spec: EnterpriseSpec) {
  const admin = await ApiClient.login(url, "admin", spec.adminPassword);
  const me = await admin.call("/v3/new/account/current");
  const { id: entId } = await admin.call("/v3/new/account/add", {
    account: spec.account,
    nickName: spec.nickName ?? "Harbour Logistics",
    password: spec.password,
    accountType: 9,
    parentId: me.userId,
    ...(spec.timeZones ? { timeZones: spec.timeZones } : {}),
  });
  const imported = await admin.call("/v3/new/newEquipment/importEquipment", {
    userId: entId,
    mcType: spec.mcType ?? "GT06N",
    imeis: spec.imeis,
  });
  if (imported.succeeded !== spec.imeis.length) {
    throw new Error(`devices not imported: ${JSON.stringify(imported)}`);
  }
  const ent = await ApiClient.login(url, spec.account, spec.password);
  return { admin, adminId: me.userId as string, entId: entId as string, ent };
}

/**
 * Verifies `address` as the account's alert mail address (the code arrives on `smtp`) and sends
 * the alerts of `types` there, with no silence time.
 */
export async function alertMailTo(
  api: ApiClient,
  smtp: Awaited<ReturnType<typeof startSmtp>>,
  address: string,
  types: string[],
) {
  const before = smtp.mails.length;
  await api.call("/v3/new/alarm/email/sendCode", { email: address });
  const codeMail = (await smtp.waitFor(before + 1))[before];
  const code = mailText(codeMail.raw).match(/\b(\d{6})\b/)![1];
  await api.call("/v3/new/alarm/email/verify", { email: address, code });
  const settings = await api.call("/v3/new/alarm/settings/get", {});
  await api.call("/v3/new/alarm/settings/save", {
    ...settings,
    userId: undefined,
    silenceMinutes: 0,
    email: { enabled: true, address, types },
  });
}

/** Waits for the islands, then closes a pop-up the shell may open (release notes, notices). */
export async function ready(page: Page) {
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.waitForTimeout(300);
  const notes = page.locator(".modal .modal-foot .btn-primary");
  if (await notes.count()) await notes.first().click();
}
