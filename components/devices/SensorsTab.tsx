import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { FieldGrid, type Spec, TabFooter, toValues, typedAll, useTabForm } from "./tabform.tsx";
import type { DeviceDetailData } from "./types.ts";
import type { OilTank, Sensors } from "../../modules/devices/detail.ts";
import {
  type CalibrationPoint,
  formatCalibration,
  parseCalibration,
} from "../../modules/sensors/model.ts";

const EQ = "/v3/new/newEquipment";
type Rod = Sensors["oilRods"][number];
type Wire = Sensors["deviceWireSensorsVos"][number];

const NEW_TANK: OilTank = {
  name: "",
  type: "fuel",
  tankId: "",
  minVoltage: 0,
  maxVoltage: 5,
  cutoffVoltage: null,
  refuelThreshold: null,
  shape: "cube",
  diameter: null,
  height: null,
  width: null,
  length: null,
  oilHeight: null,
  capacity: null,
};

/** Which dimensions a tank shape needs (the server computes the capacity from them). */
const SHAPE_DIMS: Record<OilTank["shape"], (keyof OilTank)[]> = {
  cube: ["width", "length", "height", "oilHeight", "capacity"],
  horizontal: ["diameter", "length", "oilHeight", "capacity"],
  irregular: ["height", "oilHeight", "capacity"],
};

interface Props {
  t: TFunction;
  detail: DeviceDetailData;
  readOnly: boolean;
  onSaved: () => void;
}

/**
 * Sensors tab: inputs, battery (type and nominal voltage required), fuel sensors of one type,
 * wired sensors and oil tanks with their shape and capacity.
 */
export function SensorsTab({ t, detail, readOnly, onSaved }: Props) {
  const s = detail.sensors;
  const form = useTabForm(
    toValues({
      adc: s?.adc ?? "",
      serialPort: s?.serialPort ?? "",
      serialPort485: s?.serialPort485 ?? "",
      digitalPort: s?.digitalPort ?? "",
      batteryType: s?.batteryType ?? "",
      nominalVoltage: s?.nominalVoltage ?? "",
    }),
    t,
  );
  const [rods, setRods] = useState<Rod[]>(s?.oilRods ?? []);
  const [wires, setWires] = useState<Wire[]>(s?.deviceWireSensorsVos ?? []);
  const [tanks, setTanks] = useState<OilTank[]>(s?.oilTanks ?? []);
  const label = (n: string) => t(`devices.sensors.${n}`);
  const inputs: Spec[] = ["adc", "serialPort", "serialPort485", "digitalPort"].map((name) => ({
    name,
    max: 50,
  }));
  const battery: Spec[] = [
    {
      name: "batteryType",
      kind: "select",
      required: true,
      options: [
        { value: "", label: "-" },
        ...["leadAcid", "lithium", "nickel", "other"].map((v) => ({
          value: v,
          label: t(`devices.sensors.batteryTypes.${v}`),
        })),
      ],
    },
    { name: "nominalVoltage", kind: "number", required: true },
  ];
  const save = () =>
    form.run([...inputs, ...battery], async () => {
      const saved = await api<Sensors>(`${EQ}/updateSensors`, {
        imei: detail.basic.imei,
        sensors: {
          ...typedAll([...inputs, ...battery], form.values),
          oilRods: rods,
          deviceWireSensorsVos: wires,
          oilTanks: tanks,
        },
      });
      setTanks(saved.oilTanks);
      toast(t("devices.detail.saved"));
      onSaved();
    });
  const patch = <T,>(list: T[], set: (l: T[]) => void, i: number, p: Partial<T>) =>
    set(list.map((x, j) => (j === i ? { ...x, ...p } : x)));
  const ro = readOnly;
  return (
    <div class="tab-body" data-tab="sensors">
      <h3 class="tab-h">{label("inputs")}</h3>
      <FieldGrid form={form} specs={inputs} label={label} readOnly={ro} idPrefix="sensors" />
      <h3 class="tab-h">{label("battery")}</h3>
      <FieldGrid form={form} specs={battery} label={label} readOnly={ro} idPrefix="sensors" />

      <h3 class="tab-h">
        {label("fuel")} <small class="muted">{label("fuelHint")}</small>
      </h3>
      <SensorRows
        t={t}
        rows={rods}
        readOnly={ro}
        kind="rod"
        types={["capacitive", "ultrasonic"].map((v) => [v, label(`fuelTypes.${v}`)])}
        onChange={setRods}
        add={() => setRods([...rods, { name: "", type: rods[0]?.type ?? "capacitive", mac: "" }])}
        patch={(i, p) => patch(rods, setRods, i, p as Partial<Rod>)}
      />
      <h3 class="tab-h">{label("wired")}</h3>
      <SensorRows
        t={t}
        rows={wires}
        readOnly={ro}
        kind="wire"
        types={["1", "2", "3", "4"].map((v) => [v, label(`wiredTypes.${v}`)])}
        onChange={setWires}
        add={() => setWires([...wires, { name: "", type: 1, mac: "" }])}
        patch={(i, p) =>
          patch(wires, setWires, i, {
            ...p,
            ...(p.type !== undefined ? { type: Number(p.type) as Wire["type"] } : {}),
          } as Partial<Wire>)}
      />

      <h3 class="tab-h">{label("tanks")}</h3>
      {tanks.length === 0 && <p class="muted">{label("none")}</p>}
      {tanks.map((tank, i) => (
        <TankFieldset
          key={i}
          index={i}
          label={label}
          tank={tank}
          readOnly={ro}
          onPatch={(p) => patch(tanks, setTanks, i, p)}
          onRemove={() => setTanks(tanks.filter((_, j) => j !== i))}
        />
      ))}
      {!ro && tanks.length < 8 && (
        <button
          type="button"
          class="btn add-row"
          id="add-tank"
          onClick={() => setTanks([...tanks, { ...NEW_TANK }])}
        >
          + {label("add")}
        </button>
      )}
      <TabFooter t={t} form={form} readOnly={ro} onSave={save} />
    </div>
  );
}

/** One oil tank: name, id, type, shape, voltages and the dimensions its shape needs. */
function TankFieldset(
  { index, label, tank, readOnly, onPatch, onRemove }: {
    index: number;
    label: (n: string) => string;
    tank: OilTank;
    readOnly: boolean;
    onPatch: (p: Partial<OilTank>) => void;
    onRemove: () => void;
  },
) {
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  return (
    <fieldset class="tank" data-tank={index}>
      <div class="form-grid tank-grid">
        {(["name", "tankId"] as const).map((k) => (
          <label class="field" key={k}>
            <span class="field-label">
              <i class="req">*</i>
              {label(k)}
            </span>
            <input
              name={`tank-${k}`}
              value={tank[k]}
              maxLength={k === "name" ? 20 : 30}
              disabled={readOnly}
              onInput={(e) => onPatch({ [k]: (e.target as HTMLInputElement).value })}
            />
          </label>
        ))}
        <label class="field">
          <span class="field-label">{label("type")}</span>
          <select
            value={tank.type}
            disabled={readOnly}
            onChange={(e) =>
              onPatch({
                type: (e.target as HTMLSelectElement).value as OilTank["type"],
              })}
          >
            {["fuel", "water", "other"].map((v) => (
              <option key={v} value={v}>{label(`tankTypes.${v}`)}</option>
            ))}
          </select>
        </label>
        <label class="field">
          <span class="field-label">{label("shape")}</span>
          <select
            name="tank-shape"
            value={tank.shape}
            disabled={readOnly}
            onChange={(e) =>
              onPatch({
                shape: (e.target as HTMLSelectElement).value as OilTank["shape"],
                capacity: null,
              })}
          >
            {["cube", "horizontal", "irregular"].map((v) => (
              <option key={v} value={v}>{label(`shapes.${v}`)}</option>
            ))}
          </select>
        </label>
        {([
          "minVoltage",
          "maxVoltage",
          "cutoffVoltage",
          "refuelThreshold",
          ...SHAPE_DIMS[tank.shape],
        ] as (keyof OilTank)[]).map((k) => (
          <label class="field" key={k}>
            <span class="field-label">{label(k)}</span>
            <input
              name={`tank-${k}`}
              type="number"
              step="any"
              value={tank[k] as number | null ?? ""}
              disabled={readOnly}
              placeholder={k === "capacity" && tank.shape !== "irregular"
                ? label("capacityAuto")
                : ""}
              onInput={(e) => {
                const v = num((e.target as HTMLInputElement).value);
                onPatch({
                  [k]: k === "minVoltage" || k === "maxVoltage" ? v ?? 0 : v,
                });
              }}
            />
          </label>
        ))}
      </div>
      {tank.shape === "irregular" && (
        <CalibrationField
          label={label}
          rows={tank.calibration ?? []}
          readOnly={readOnly}
          onChange={(calibration) => onPatch({ calibration })}
        />
      )}
      {!readOnly && (
        <button
          type="button"
          class="link-btn danger"
          onClick={onRemove}
        >
          {label("remove")}
        </button>
      )}
    </fieldset>
  );
}

const CALIBRATION_EXAMPLE = "0.5, 0\n2.0, 60\n4.5, 150";

/**
 * An irregular tank's calibration table as text, one "reading, litres" row per line; the rows
 * follow the text whenever it reads as numbers (the server checks their order).
 */
function CalibrationField(
  { label, rows, readOnly, onChange }: {
    label: (n: string) => string;
    rows: CalibrationPoint[];
    readOnly: boolean;
    onChange: (rows: CalibrationPoint[]) => void;
  },
) {
  const [text, setText] = useState(formatCalibration(rows));
  const parsed = parseCalibration(text);
  return (
    <label class="field tank-calibration">
      <span class="field-label">{label("calibration")}</span>
      <textarea
        name="tank-calibration"
        class="input mono"
        rows={4}
        value={text}
        disabled={readOnly}
        placeholder={CALIBRATION_EXAMPLE}
        onInput={(e) => {
          const value = (e.target as HTMLTextAreaElement).value;
          setText(value);
          const next = parseCalibration(value);
          if (next) onChange(next);
        }}
      />
      <span class={parsed ? "muted" : "field-error"}>{label("calibrationHint")}</span>
    </label>
  );
}

interface RowsProps {
  t: TFunction;
  rows: { name: string; type: string | number; mac: string }[];
  readOnly: boolean;
  kind: "rod" | "wire";
  types: [string, string][];
  onChange: (rows: never[]) => void;
  add: () => void;
  patch: (i: number, p: { name?: string; type?: string; mac?: string }) => void;
}

/** Name / type / MAC rows of fuel or wired sensors. */
function SensorRows({ t, rows, readOnly, kind, types, onChange, add, patch }: RowsProps) {
  const label = (n: string) => t(`devices.sensors.${n}`);
  return (
    <div class="sensor-rows" data-kind={kind}>
      {rows.length === 0 && <p class="muted">{label("none")}</p>}
      {rows.map((r, i) => (
        <div class="sensor-row" key={i}>
          <input
            name={`${kind}-name`}
            class="input"
            placeholder={label("name")}
            aria-label={label("name")}
            maxLength={20}
            value={r.name}
            disabled={readOnly}
            onInput={(e) => patch(i, { name: (e.target as HTMLInputElement).value })}
          />
          <select
            name={`${kind}-type`}
            class="input"
            aria-label={label("type")}
            value={String(r.type)}
            disabled={readOnly}
            onChange={(e) => patch(i, { type: (e.target as HTMLSelectElement).value })}
          >
            {types.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </select>
          <input
            name={`${kind}-mac`}
            class="input mono"
            placeholder="AA:BB:CC:DD:EE:FF"
            aria-label={label("mac")}
            maxLength={17}
            value={r.mac}
            disabled={readOnly}
            onInput={(e) => patch(i, { mac: (e.target as HTMLInputElement).value })}
          />
          {!readOnly && (
            <button
              type="button"
              class="link-btn danger"
              onClick={() => onChange(rows.filter((_, j) => j !== i) as never[])}
            >
              {label("remove")}
            </button>
          )}
        </div>
      ))}
      {!readOnly && rows.length < 8 && (
        <button type="button" class="btn add-row" id={`add-${kind}`} onClick={add}>
          + {label("add")}
        </button>
      )}
    </div>
  );
}
