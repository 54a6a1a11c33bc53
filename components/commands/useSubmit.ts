import { useState } from "react";
import { ApiError, refusedField } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";

/** Error text per field name of a form. */
export type FieldErrors = Record<string, string>;

/** Turns a refusal into field errors, or null when it belongs in a toast. */
export type RefusalFields = (err: unknown) => FieldErrors | null;

/**
 * The submit cycle of the command area's forms: the mistakes found before sending are shown
 * and stop it; otherwise `send` runs while `busy`. A refusal that `onRefusal` places on fields
 * shows there; any other error is a toast.
 */
export function useSubmit() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const submit = async (
    found: FieldErrors,
    send: () => Promise<void>,
    onRefusal: RefusalFields = () => null,
  ) => {
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await send();
    } catch (err) {
      const fields = onRefusal(err);
      if (fields) setErrors(fields);
      else toast((err as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, busy, submit };
}

/** A refusal of the server's parameter check (`params.<key>…`), on that parameter. */
export function paramRefusal(err: unknown): FieldErrors | null {
  const field = refusedField(err);
  return field?.startsWith("params.") ? { [field.split(".")[1]]: (err as Error).message } : null;
}

/** A refusal with catalogue code `code`, on the field `key`. */
export function codeRefusal(err: unknown, code: number, key: string): FieldErrors | null {
  return err instanceof ApiError && err.code === code ? { [key]: err.message } : null;
}
