/**
 * AccountStore consistency: the tree indexes stay right when a record read before a move or
 * a deletion is saved afterwards (the race of a profile edit against a transfer).
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { type Account, childPath } from "./model.ts";
import { addAccount, assertOk, PASSWORD, whoAmI } from "./test_support.ts";

Deno.test("AccountStore keeps the tree consistent against stale saves", async (s) => {
  const t = await testApp();
  const store = t.services.accountStore;
  const admin = await t.adminToken();
  const adminId = await whoAmI(t, admin);
  const distA = await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  const entA = await addAccount(t, admin, { account: "entA", accountType: 9, parentId: distA });
  const userA = await addAccount(t, admin, { account: "userA", accountType: 12, parentId: entA });
  const distB = await addAccount(t, admin, { account: "distB", accountType: 8, parentId: adminId });
  const subtreeIds = async (id: string) => {
    const ids: string[] = [];
    for await (const e of store.subtree(id)) ids.push(e.id);
    return ids.sort();
  };

  try {
    await s.step("a save of a record read before a move keeps the new place", async () => {
      const stale = (await store.get(entA))!;
      // The administrator moves entA (with userA) from distA to distB...
      assertOk(await t.call("/v3/new/account/move", { ids: [entA], targetId: distB }, admin));
      // ...while an edit that loaded entA earlier saves its change.
      await store.update({ ...stale, contact: "late edit" });

      const now = (await store.get(entA))!;
      assert.equal(now.contact, "late edit", "the edit is kept");
      assert.equal(now.parentId, distB);
      assert.equal(now.fullParentId, `,${adminId},${distB},`);
      assert.deepEqual(await subtreeIds(distA), [], "nothing left under the old parent");
      assert.deepEqual(await subtreeIds(distB), [entA, userA].sort());
      assert.deepEqual(await store.childIds(distA), []);
      // And distA can no longer see it.
      const distAToken = await t.login("distA", PASSWORD);
      const r = await t.call(`/v3/new/account/detail?id=${entA}`, undefined, distAToken);
      assert.equal(r.json.code, 49003);
    });

    await s.step("a move writes the current record, not the one validated earlier", async () => {
      // Simulate a password reset landing between the move's checks and its write.
      const validated = (await store.get(entA))!;
      const current = { ...validated, contact: "changed meanwhile", sessionVersion: 7 };
      await store.update(current);
      await store.move(validated, (await store.get(distA))!);
      const after = (await store.get(entA))!;
      assert.equal(after.parentId, distA);
      assert.equal(after.contact, "changed meanwhile");
      assert.equal(after.sessionVersion, 7);
      assert.equal((await store.get(userA))?.fullParentId, `,${adminId},${distA},${entA},`);
    });

    await s.step("a save after a deletion does not bring the account back", async () => {
      const stale = (await store.get(userA))!;
      assertOk(await t.call("/v3/new/account/delete", { id: userA }, admin));
      await store.update({ ...stale, contact: "ghost" });
      assert.equal(await store.get(userA), null);
      assert.deepEqual(await subtreeIds(entA), []);
      assert.equal(await store.findIdByLogin("userA"), null);
    });

    await s.step("a deletion with a record read before a move clears the new indexes", async () => {
      const x = await addAccount(t, admin, { account: "mover", accountType: 12, parentId: distA });
      const stale = (await store.get(x))!;
      assertOk(await t.call("/v3/new/account/move", { ids: [x], targetId: distB }, admin));
      await store.remove(stale);
      assert.equal(await store.get(x), null);
      assert.equal(await store.findIdByLogin("mover"), null);
      assert.ok(!(await subtreeIds(distB)).includes(x), "not listed under the new parent");
      assert.ok(!(await subtreeIds(adminId)).includes(x));
      assert.ok(!(await store.childIds(distB)).includes(x));
    });

    await s.step("a deep and wide subtree moves within the KV commit limits", async () => {
      // 40 levels below entA, then 150 leaves under the deepest: far beyond one commit.
      const template = (await store.get(entA))!;
      const insert = async (parent: Account, login: string, type: 9 | 12) => {
        const a: Account = {
          ...template,
          id: await store.newId(),
          account: login,
          accountType: type,
          parentId: parent.id,
          fullParentId: childPath(parent),
          virtual: null,
        };
        assert.ok(await store.insert(a));
        return a;
      };
      let parent = (await store.get(entA))!;
      const chain: Account[] = [];
      for (let i = 0; i < 40; i++) chain.push(parent = await insert(parent, `deep${i}`, 9));
      const leaves: Account[] = [];
      for (let i = 0; i < 150; i++) leaves.push(await insert(parent, `leaf${i}`, 12));

      assertOk(await t.call("/v3/new/account/move", { ids: [entA], targetId: distB }, admin));

      const base = `,${adminId},${distB},${entA},`;
      let expected = base;
      for (const c of chain) {
        const now = (await store.get(c.id))!;
        assert.equal(now.fullParentId, expected, c.account);
        expected += `${c.id},`;
      }
      for (const l of leaves) assert.equal((await store.get(l.id))?.fullParentId, expected);
      const all = [entA, ...chain.map((c) => c.id), ...leaves.map((l) => l.id)].sort();
      assert.deepEqual(await subtreeIds(distB), all);
      assert.deepEqual(await subtreeIds(distA), []);
      // Every ancestor indexes the deepest leaves, and nothing else does.
      const deepest = leaves[0];
      for (const anc of [adminId, distB, entA, ...chain.map((c) => c.id)]) {
        assert.ok((await subtreeIds(anc)).includes(deepest.id), `ancestor ${anc}`);
      }
      assert.ok(!(await subtreeIds(distA)).includes(deepest.id));
      assert.equal(await store.hasChildren(distA), false);
      assert.deepEqual(await store.childIds(distB), [entA]);
    });
  } finally {
    await t.close();
  }
});
