/**
 * One alarm-sound setting: the alert settings' `sound` is the source of truth (the pop-up
 * plays by it); the account's soundFlag (account/current) reads it and the profile's
 * alarmSoundFlag (updateProfile) writes it.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";

Deno.test("alarm sound: one setting read and written from the profile and the alert settings", async () => {
  const app = await testApp();
  try {
    const token = await app.adminToken();
    const call = async (path: string, body?: unknown, tk = token) => {
      const r = await app.call(path, body, tk);
      return r.json as { code: number; data: Record<string, unknown> };
    };
    const current = async (tk = token) =>
      (await call("/v3/new/account/current", undefined, tk)).data;
    const settings = async () => (await call("/v3/new/alarm/settings/get", {})).data;
    const popupSound = async () => (await call("/v3/new/alarm/popups")).data.sound;

    // A new account: the pop-up plays a sound, and the profile says so.
    assert.equal((await settings()).sound, true);
    assert.equal((await current()).soundFlag, 1);

    // Off in the alert settings: off everywhere.
    const { userId: _u, ...saved } = await settings();
    assert.equal(
      (await call("/v3/new/alarm/settings/save", { ...saved, sound: false })).code,
      10000,
    );
    assert.equal((await current()).soundFlag, 0);
    assert.equal(await popupSound(), false);

    // On through the profile's field: the alert settings change with it.
    const on = await call("/v3/new/account/updateProfile", { alarmSoundFlag: 1 });
    assert.equal(on.code, 10000);
    assert.equal((await settings()).sound, true);
    assert.equal((await current()).soundFlag, 1);
    assert.equal(await popupSound(), true);

    // A read-only virtual user may edit its profile but not the account's alarm sound.
    const added = await call("/v3/new/account/virtual/add", {
      account: "viewer1",
      nickName: "Viewer",
      password: "Passw0rd99",
      scope: { instructionsFlag: 0, updateFlag: 0, videoFlag: 0 },
    });
    assert.equal(added.code, 10000, JSON.stringify(added));
    const viewer = await app.login("viewer1", "Passw0rd99");
    assert.equal(
      (await call("/v3/new/account/updateProfile", { nickName: "Viewer 2" }, viewer)).code,
      10000,
    );
    const refused = await call("/v3/new/account/updateProfile", { alarmSoundFlag: 0 }, viewer);
    assert.equal(refused.code, 49003);
    assert.equal((await settings()).sound, true, "unchanged");
    assert.equal(
      (await current(viewer)).soundFlag,
      1,
      "the virtual user hears its master's setting",
    );
  } finally {
    await app.close();
  }
});
