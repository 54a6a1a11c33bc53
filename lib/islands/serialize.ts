/**
 * Island props <-> string, safe to inline in `<script type="application/json">`.
 *
 * Format: plain JSON where a Date becomes `{"$date": "<ISO>"}` (null for an invalid Date).
 * A user object that itself has a `$date` or `$obj` key is wrapped as `{"$obj": {...}}` so it
 * can never be mistaken for a tagged value.
 */

/** Thrown for values that cannot cross the server/client boundary (functions, Maps, ...). */
export class SerializeError extends Error {
  constructor(message: string, readonly path: string) {
    super(message);
    this.name = "SerializeError";
  }
}

const DATE = "$date";
const OBJ = "$obj";

function describe(path: string): string {
  return path === "" ? "the value" : `"${path}"`;
}

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Turns `value` into JSON-compatible data, throwing SerializeError for unsupported values. */
function encode(value: unknown, path: string, seen: Set<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // Same as JSON: NaN/Infinity become null.
      return Number.isFinite(value) ? value : null;
    case "undefined":
      return undefined;
    case "function":
      throw new SerializeError(
        `${describe(path)} is a function; island props must be JSON data or Date`,
        path,
      );
    case "bigint":
    case "symbol":
      throw new SerializeError(
        `${describe(path)} is a ${typeof value}; island props must be JSON data or Date`,
        path,
      );
  }
  if (value === null) return null;
  const obj = value as object;
  if (obj instanceof Date) {
    const time = obj.getTime();
    return { [DATE]: Number.isNaN(time) ? null : obj.toISOString() };
  }
  if (seen.has(obj)) throw new SerializeError(`${describe(path)} is a circular reference`, path);
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      return obj.map((item, i) => {
        const encoded = encode(item, join(path, i), seen);
        return encoded === undefined ? null : encoded;
      });
    }
    if (!isPlainObject(obj)) {
      const kind = obj.constructor?.name ?? "object";
      throw new SerializeError(
        `${describe(path)} is a ${kind}; island props must be plain objects, arrays or Date`,
        path,
      );
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(obj)) {
      const encoded = encode(item, join(path, key), seen);
      if (encoded !== undefined) out[key] = encoded;
    }
    return DATE in out || OBJ in out ? { [OBJ]: out } : out;
  } finally {
    seen.delete(obj);
  }
}

/** Revives tagged values (Dates) in already-parsed JSON produced by {@link serialize}. */
export function revive(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(revive);
  const obj = value as Record<string, unknown>;
  if (DATE in obj) {
    const iso = obj[DATE];
    return new Date(typeof iso === "string" ? iso : NaN);
  }
  const source = OBJ in obj ? obj[OBJ] as Record<string, unknown> : obj;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(source)) out[key] = revive(item);
  return out;
}

// Characters that could end the <script> element or start a comment/CDATA in HTML, plus
// the JS line terminators. Outside strings JSON never contains them, so escaping is lossless.
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** JSON text for `value` with HTML-significant characters escaped. */
export function escapeJson(json: string): string {
  return json.replace(UNSAFE, (ch) => ESCAPES[ch]);
}

/** Serializes props to a string safe inside `<script type="application/json">`. */
export function serialize(value: unknown): string {
  const encoded = encode(value, "", new Set());
  return escapeJson(JSON.stringify(encoded === undefined ? null : encoded));
}

/** Inverse of {@link serialize}: parses the text and revives Dates. */
export function deserialize<T = unknown>(text: string): T {
  return revive(JSON.parse(text)) as T;
}
