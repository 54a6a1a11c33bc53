import { signal } from "@preact/signals";

export interface ToastMessage {
  id: number;
  kind: "success" | "error" | "info";
  text: string;
}

export const toasts = signal<ToastMessage[]>([]);
let nextId = 1;

/** Shows a short message in the corner for a few seconds. */
export function toast(text: string, kind: ToastMessage["kind"] = "success") {
  if (!text) return;
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text }];
  setTimeout(
    () => (toasts.value = toasts.value.filter((m) => m.id !== id)),
    kind === "error" ? 6000 : 3000,
  );
}

export function Toasts() {
  return (
    <div class="toasts" aria-live="polite">
      {toasts.value.map((m) => (
        <div key={m.id} class={`toast toast-${m.kind}`} role="status">{m.text}</div>
      ))}
    </div>
  );
}
