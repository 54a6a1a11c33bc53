import { type ReactNode, useEffect } from "react";

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  closeLabel: string;
}

/** A dialog over the page; Escape and the close button dismiss it. */
export function Modal({ title, onClose, children, footer, width = 520, closeLabel }: Props) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div
        class="modal"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        style={{ width: `${width}px` }}
      >
        <header class="modal-head">
          <h2>{title}</h2>
          <button type="button" class="icon-btn" aria-label={closeLabel} onClick={onClose}>
            ×
          </button>
        </header>
        <div class="modal-body">{children}</div>
        {footer && <footer class="modal-foot">{footer}</footer>}
      </div>
    </div>
  );
}
