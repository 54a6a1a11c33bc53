import assert from "node:assert/strict";
import { shapeProblem } from "./model.ts";
import { squarePolygon } from "../../tests/helpers/alerting.ts";

Deno.test("shapeProblem: the API's radius and polygon rules, for the map editor", () => {
  const circle = (radius: number) => ({
    kind: "circle" as const,
    center: { lat: 29, lng: 106 },
    radius,
  });
  assert.equal(shapeProblem("fence", circle(200)), null);
  assert.equal(shapeProblem("fence", circle(5000)), null);
  assert.equal(shapeProblem("fence", circle(199)), "validation.radius.fence");
  assert.equal(shapeProblem("fence", circle(5001)), "validation.radius.fence");
  assert.equal(shapeProblem("fence", circle(250.5)), "validation.radius.fence");
  assert.equal(shapeProblem("landmark", circle(10)), null);
  assert.equal(shapeProblem("blackCar", circle(5001)), "validation.radius.blackCar");
  const ok = squarePolygon(29, 106, 3000); // ≈ 8.5 km diagonal
  assert.equal(shapeProblem("fence", { kind: "polygon", points: ok }), null);
  const wide = squarePolygon(29, 106, 3600); // ≈ 10.2 km diagonal
  assert.equal(shapeProblem("fence", { kind: "polygon", points: wide }), "validation.spanTooLarge");
  const open = ok.slice(0, 4);
  assert.equal(shapeProblem("fence", { kind: "polygon", points: open }), "validation.notClosed");
});
