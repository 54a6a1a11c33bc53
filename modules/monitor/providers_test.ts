import assert from "node:assert/strict";
import { googleKeyFor, tileUrl } from "./providers.ts";

Deno.test("googleKeyFor: the user's own key wins, else the parent's shared key", () => {
  const parent = { googleMapKey: "AIza-parent", shareGoogleMapKey: 1 as const };
  assert.equal(
    googleKeyFor({ googleMapKey: "AIza-own", parentGoogleMapKeyFlag: 1 }, parent),
    "AIza-own",
  );
  assert.equal(
    googleKeyFor({ googleMapKey: "", parentGoogleMapKeyFlag: 1 }, parent),
    "AIza-parent",
  );
  assert.equal(
    googleKeyFor({ googleMapKey: " ", parentGoogleMapKeyFlag: 1 }, parent),
    "AIza-parent",
  );
  // The flag off, or the parent no longer sharing: no key.
  assert.equal(googleKeyFor({ googleMapKey: "", parentGoogleMapKeyFlag: 0 }, parent), "");
  assert.equal(
    googleKeyFor({ googleMapKey: "", parentGoogleMapKeyFlag: 1 }, {
      ...parent,
      shareGoogleMapKey: 0,
    }),
    "",
  );
  assert.equal(googleKeyFor(null, parent), "");
});

Deno.test("tileUrl puts the key into Google tile addresses", () => {
  const url = tileUrl(
    "https://mt{s}.google.com/vt/lyrs=m&hl={lang}&x={x}&y={y}&z={z}&key={key}",
    3,
    5,
    4,
    { lang: "zh", key: "AIza parent" },
  );
  assert.equal(url, "https://mt0.google.com/vt/lyrs=m&hl=zh-CN&x=3&y=5&z=4&key=AIza%20parent");
});
