/**
 * The user's own e-mail (/myProfile) over a real SMTP server: a code mailed to the new
 * address sets it; a wrong code, a code for another address and the unchanged address are
 * refused; the proven address needs no second code for alert mail; virtual accounts refused.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { mailText, startSmtp } from "../../tests/helpers/smtp.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { addAccount, addVirtual, PASSWORD } from "../accounts/test_support.ts";

Deno.test("own e-mail: set with the mailed code", async () => {
  const smtp = await startSmtp();
  const app = await testApp({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) });
  try {
    const admin = await app.adminToken();
    const id = await addAccount(app, admin, {
      account: "mail_owner",
      parentId: "1",
      accountType: 8,
      email: "old@owner.test",
    });
    const token = await app.login("mail_owner", PASSWORD);

    const same = await app.call("/v3/new/myEmail/sendCode", { email: "OLD@owner.test" }, token);
    assert.equal(same.json.code, CATALOGUE.emailUnchanged);

    const sent = await app.call("/v3/new/myEmail/sendCode", { email: "new@owner.test" }, token);
    assert.equal(sent.json.code, 10000);
    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail.to, ["new@owner.test"]);
    const code = mailText(mail.raw).match(/\b(\d{6})\b/)![1];

    const again = await app.call("/v3/new/myEmail/sendCode", { email: "new@owner.test" }, token);
    assert.equal(again.json.code, CATALOGUE.requestTooOften);
    const wrongAddress = await app.call(
      "/v3/new/myEmail/confirm",
      { email: "other@owner.test", code },
      token,
    );
    assert.equal(wrongAddress.json.code, CATALOGUE.verificationCodeError);
    const wrong = code === "000000" ? "111111" : "000000";
    const bad = await app.call("/v3/new/myEmail/confirm", {
      email: "new@owner.test",
      code: wrong,
    }, token);
    assert.equal(bad.json.code, CATALOGUE.verificationCodeError);
    assert.equal((await app.services.accountStore.get(id))?.email, "old@owner.test");

    const ok = await app.call("/v3/new/myEmail/confirm", { email: "new@owner.test", code }, token);
    assert.equal(ok.json.code, 10000);
    const me = await app.call("/v3/new/account/current", undefined, token);
    assert.equal(me.json.data.email, "new@owner.test");
    const reuse = await app.call(
      "/v3/new/myEmail/confirm",
      { email: "new@owner.test", code },
      token,
    );
    assert.equal(reuse.json.code, CATALOGUE.verificationCodeError);
    assert.ok(await app.services.codes.isVerified(id, "new@owner.test"));

    await addVirtual(app, token, "mail_viewer");
    const viewer = await app.login("mail_viewer", PASSWORD);
    const refused = await app.call("/v3/new/myEmail/sendCode", { email: "v@owner.test" }, viewer);
    assert.equal(refused.json.code, CATALOGUE.permissionDenied);
  } finally {
    await app.close();
    await smtp.close();
  }
});
