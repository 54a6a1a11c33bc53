import { fieldMsg } from "./format.ts";
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { formatDateTime, instructionName, replyText } from "./format.ts";
import { checkParams, InstructionFields, paramsBody, useInstruction } from "./ParamFields.tsx";
import { codeRefusal, paramRefusal, useSubmit } from "./useSubmit.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { DangerConfirm } from "./DangerConfirm.tsx";
import { dangerOf, startInstruction } from "../../modules/commands/model.ts";
import { passwordBody, PasswordField, passwordRefusal, SendTypeField } from "./SendFields.tsx";
import type { CommandRow, InstructionDef } from "./types.ts";

type Offered = InstructionDef & { passwordRequired: boolean };

/**
 * Sends one instruction to one device: only what its model accepts, online or offline,
 * replacing a pending offline command after confirmation, with the password where the
 * model protects the instruction; then shows the device's recent commands live. Meant for
 * the device menu and the monitor pop-up as well as the status page.
 */
export function SendCommandDialog({ t, imei, onClose }: {
  t: TFunction;
  imei: string;
  onClose: () => void;
}) {
  const instruction = useInstruction<Offered>(null);
  const { offered, none } = useOfferedInstructions(imei, instruction.choose);
  const [sendType, setSendType] = useState<"online" | "offline">("online");
  const [password, setPassword] = useState("");
  const { errors, setErrors, busy, submit } = useSubmit();
  const [confirmReplace, setConfirmReplace] = useState(false);
  const [askDanger, setAskDanger] = useState(false);
  const { recent, refresh } = useRecentCommands(imei);

  const { def, values } = instruction;
  const send = async (replace: boolean) => {
    if (!def) return;
    const found = checkParams(t, def.params, values);
    if (def.passwordRequired && !password) found.password = fieldMsg(t, "validation.required");
    await submit(found, async () => {
      await api("/v3/new/command/sendInstruction", {
        imei,
        code: def.code,
        params: paramsBody(def.params, values),
        sendType,
        replace,
        ...passwordBody(def.passwordRequired, password),
      });
      toast(t("commands.ui.sent"));
      setConfirmReplace(false);
      setPassword("");
      refresh();
    }, (err) => {
      // A pending offline command: ask before replacing it (the form's errors stay clear).
      if (codeRefusal(err, 43006, "replace")) {
        setConfirmReplace(true);
        return {};
      }
      return passwordRefusal(err) ?? paramRefusal(err);
    });
  };
  const cancelPending = async () => {
    try {
      await api("/v3/new/command/cancel", { imei });
      toast(t("commands.ui.cancelled"));
      refresh();
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };

  return (
    <Modal
      title={t("commands.ui.sendTo", { imei })}
      closeLabel={t("ui.close")}
      onClose={onClose}
      width={620}
      footer={offered && (
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.close")}</button>
          <button
            type="submit"
            form="cmd-send-form"
            class="btn btn-primary"
            disabled={busy}
          >
            {busy ? t("commands.ui.sending") : t("commands.ui.send")}
          </button>
        </>
      )}
    >
      {none && (
        <div class="empty">
          <p>{none}</p>
        </div>
      )}
      {!offered && !none && <p class="tree-note">{t("ui.loading")}</p>}
      {offered && def && (
        <form
          id="cmd-send-form"
          class="cmd-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            // A dangerous instruction is confirmed first (once its password is typed).
            if (dangerOf(def.code) && !(def.passwordRequired && !password)) setAskDanger(true);
            else send(false);
          }}
        >
          <InstructionFields t={t} instruction={instruction} errors={errors}>
            <select
              class="input"
              name="instruction"
              value={def.code}
              onChange={(e) => {
                const code = (e.target as HTMLSelectElement).value;
                instruction.choose(offered.find((i) => i.code === code)!);
                setErrors({});
              }}
            >
              {offered.map((i) => (
                <option key={i.code} value={i.code}>{t(`commands.instructions.${i.code}`)}</option>
              ))}
            </select>
          </InstructionFields>
          <SendTypeField t={t} sendType={sendType} onSendType={setSendType} />
          <PasswordField
            t={t}
            needed={def.passwordRequired}
            value={password}
            error={errors.password}
            onInput={setPassword}
          />
          {confirmReplace && (
            <div class="notice cmd-replace" role="alert">
              <p>{t("commands.ui.replaceConfirm")}</p>
              <button type="button" class="btn btn-primary" onClick={() => send(true)}>
                {t("commands.ui.replace")}
              </button>
            </div>
          )}
          {askDanger && (
            <DangerConfirm
              t={t}
              code={def.code}
              danger={dangerOf(def.code)!}
              imeis={[imei]}
              onCancel={() => setAskDanger(false)}
              onConfirm={() => {
                setAskDanger(false);
                send(false);
              }}
            />
          )}
        </form>
      )}
      {recent.length > 0 && <RecentCommands t={t} recent={recent} onCancel={cancelPending} />}
    </Modal>
  );
}

/** The instructions the device's model accepts, or why there are none. */
function useOfferedInstructions(imei: string, choose: (def: Offered) => void) {
  const [offered, setOffered] = useState<Offered[] | null>(null);
  const [none, setNone] = useState("");
  useEffect(() => {
    api<{ instructions: Offered[] }>(`/v3/new/command/instructions?imei=${imei}`).then((d) => {
      setOffered(d.instructions);
      // Never an engine cut: a Send pressed without looking must be harmless.
      const first = startInstruction(d.instructions);
      if (first) choose(first);
    }, (e) => setNone((e as Error).message));
  }, [imei]);
  return { offered, none };
}

/** The device's last five commands, polled each second while one is being sent. */
function useRecentCommands(imei: string) {
  const [recent, setRecent] = useState<CommandRow[]>([]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    api<{ list: CommandRow[] }>("/v3/new/command/list", { imei, pageNum: 1, pageSize: 10 })
      .then((d) => {
        if (!live) return;
        setRecent(d.list.slice(0, 5));
        if (d.list.some((r) => r.status === "sending")) {
          timer = setTimeout(() => setTick((n) => n + 1), 1000);
        }
      }, () => {});
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [imei, tick]);
  return { recent, refresh: () => setTick((n) => n + 1) };
}

function RecentCommands(
  { t, recent, onCancel }: { t: TFunction; recent: CommandRow[]; onCancel: () => void },
) {
  return (
    <div class="cmd-recent">
      <h3>{t("commands.ui.recent")}</h3>
      <table class="data">
        <tbody>
          {recent.map((r) => (
            <tr key={r.id} data-status={r.status}>
              <td>{instructionName(t, r.name)}</td>
              <td>
                <StatusBadge t={t} status={r.status} />
              </td>
              <td class="cmd-reply" title={r.reply ?? ""}>{replyText(t, r.reply)}</td>
              <td class="nowrap">{formatDateTime(r.createdAt)}</td>
              <td class="col-actions">
                {r.status === "toBeSent" && (
                  <button type="button" class="link-btn danger" onClick={onCancel}>
                    {t("commands.ui.cancel")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
