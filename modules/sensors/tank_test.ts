import assert from "node:assert/strict";
import { calibrationProblem, formatCalibration, parseCalibration } from "./model.ts";
import {
  calibrationLitres,
  cubeLitres,
  horizontalCylinderLitres,
  type TankGeometry,
  tankLitres,
} from "./tank.ts";

const near = (actual: number | null, expected: number, eps = 0.05) =>
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= eps,
    `${actual} is not ${expected} ± ${eps}`,
  );

const base: TankGeometry = {
  shape: "cube",
  width: null,
  length: null,
  height: null,
  diameter: null,
  minVoltage: 0,
  maxVoltage: 5,
  capacity: null,
};

Deno.test("cube: 100 × 50 × 40 cm holds 200 L, half its height 100 L", () => {
  near(cubeLitres(100, 50, 40), 200);
  const tank = { ...base, width: 100, length: 50, height: 40 };
  near(tankLitres(tank, { kind: "height", cm: 20 }), 100);
  near(tankLitres(tank, { kind: "voltage", volts: 2.5 }), 100);
  near(tankLitres(tank, { kind: "voltage", volts: 5 }), 200);
  // Out-of-range readings are clamped to an empty or a full tank.
  near(tankLitres(tank, { kind: "voltage", volts: 7 }), 200);
  near(tankLitres(tank, { kind: "height", cm: -3 }), 0);
  near(tankLitres(tank, { kind: "percent", percent: 25 }), 50);
});

Deno.test("cube: voltages between the empty and full voltages of the sensor", () => {
  const tank = { ...base, width: 100, length: 100, height: 100, minVoltage: 1, maxVoltage: 9 };
  near(tankLitres(tank, { kind: "voltage", volts: 1 }), 0);
  near(tankLitres(tank, { kind: "voltage", volts: 3 }), 250);
  near(tankLitres(tank, { kind: "voltage", volts: 0.4 }), 0);
});

Deno.test("horizontal cylinder: full, half, a quarter and three quarters of the diameter", () => {
  // d = 60 cm, l = 200 cm: full = π·30²·200 / 1000 = 565.49 L.
  const full = Math.PI * 30 * 30 * 200 / 1000;
  near(horizontalCylinderLitres(60, 200, 60), full);
  near(horizontalCylinderLitres(60, 200, 30), full / 2);
  near(horizontalCylinderLitres(60, 200, 0), 0);
  // h = r/2: segment area r²(π/3 − √3/4) = 900 × 0.614185 = 552.77 cm² → × 200 / 1000 = 110.55 L.
  near(horizontalCylinderLitres(60, 200, 15), 110.55);
  // The upper quarter mirrors the lower one.
  near(horizontalCylinderLitres(60, 200, 45), full - 110.55);
  const tank: TankGeometry = { ...base, shape: "horizontal", diameter: 60, length: 200 };
  near(tankLitres(tank, { kind: "voltage", volts: 1.25 }), 110.55);
  near(tankLitres(tank, { kind: "percent", percent: 50 }), full / 2);
  near(tankLitres(tank, { kind: "height", cm: 80 }), full);
});

Deno.test("irregular: calibration table read by linear interpolation, clamped at its ends", () => {
  const table = [
    { value: 0.5, litres: 0 },
    { value: 1.5, litres: 40 },
    { value: 3, litres: 100 },
    { value: 4.5, litres: 130 },
  ];
  near(calibrationLitres(table, 1), 20);
  near(calibrationLitres(table, 2.25), 70);
  near(calibrationLitres(table, 3), 100);
  near(calibrationLitres(table, 4), 120);
  near(calibrationLitres(table, 0.1), 0);
  near(calibrationLitres(table, 9), 130);
  const tank: TankGeometry = { ...base, shape: "irregular", calibration: table, capacity: 130 };
  near(tankLitres(tank, { kind: "voltage", volts: 2.25 }), 70);
  near(tankLitres(tank, { kind: "percent", percent: 50 }), 65);
  // Without a table an irregular tank scales its capacity by the height.
  const plain: TankGeometry = { ...base, shape: "irregular", height: 80, capacity: 160 };
  near(tankLitres(plain, { kind: "height", cm: 20 }), 40);
  near(tankLitres(plain, { kind: "voltage", volts: 5 }), 160);
});

Deno.test("a tank missing what its shape needs converts nothing", () => {
  assert.equal(tankLitres({ ...base, width: 10 }, { kind: "height", cm: 5 }), null);
  assert.equal(tankLitres({ ...base, shape: "horizontal" }, { kind: "voltage", volts: 1 }), null);
});

Deno.test("calibration tables: monotonic check and the text form", () => {
  assert.equal(calibrationProblem([{ value: 1, litres: 0 }]), "validation.calibrationTooShort");
  assert.equal(
    calibrationProblem([{ value: 1, litres: 0 }, { value: 1, litres: 5 }]),
    "validation.calibrationNotMonotonic",
  );
  assert.equal(
    calibrationProblem([{ value: 1, litres: 10 }, { value: 2, litres: 5 }]),
    "validation.calibrationNotMonotonic",
  );
  assert.equal(calibrationProblem([{ value: 1, litres: 0 }, { value: 2, litres: 5 }]), null);
  const rows = parseCalibration("0.5, 0\n1.5;40\n\n3 100\n");
  assert.deepEqual(rows, [
    { value: 0.5, litres: 0 },
    { value: 1.5, litres: 40 },
    { value: 3, litres: 100 },
  ]);
  assert.equal(formatCalibration(rows!), "0.5,0\n1.5,40\n3,100");
  assert.equal(parseCalibration("1,x"), null);
  assert.equal(parseCalibration("1,2,3"), null);
});
