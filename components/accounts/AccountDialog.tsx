import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Field } from "../ui/Field.tsx";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { FlagChecks, FormDialog, Input, NewPasswordFields, Select, useForm } from "./form.tsx";
import { RULES, sameAs } from "./validate.ts";
import {
  ACCOUNT_TYPES,
  type AccountDetail,
  type AccountRef,
  type AccountRow,
  creatableTypes,
  editableTypes,
  type Me,
  NODES,
  PERMISSION_FLAGS,
  type PermissionFlag,
} from "./types.ts";

type Permissions = Record<PermissionFlag, 0 | 1>;
const ALL_ON = Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, 1])) as Permissions;

interface AddProps {
  t: TFunction;
  me: Me;
  superior: AccountRef;
  onClose: () => void;
  onDone: () => void;
}

/** Add account: the superior is the account selected in the tree. */
export function AddAccountDialog({ t, me, superior, onClose, onDone }: AddProps) {
  const types = creatableTypes(me.accountType, superior.accountType);
  return (
    <AccountForm
      t={t}
      types={types}
      superiorLabel={`${superior.nickName} (${superior.account})`}
      initial={{
        account: "",
        nickName: "",
        password: "",
        confirmPassword: "",
        accountType: String(types[types.length - 1] ?? ""),
        contact: "",
        phone: "",
        email: "",
        companyName: "",
        expiration: "",
        description: "",
        nodeId: "",
      }}
      permissions={ALL_ON}
      onClose={onClose}
      save={async (v, permissions) => {
        const optional = (k: keyof typeof v) => (v[k].trim() ? { [k]: v[k].trim() } : {});
        await api("/v3/new/account/add", {
          account: v.account.trim(),
          nickName: v.nickName.trim(),
          password: v.password,
          accountType: Number(v.accountType),
          parentId: superior.id,
          ...optional("contact"),
          ...optional("phone"),
          ...optional("email"),
          ...optional("companyName"),
          ...optional("description"),
          ...optional("expiration"),
          ...(v.nodeId ? { nodeId: Number(v.nodeId) } : {}),
          permissions,
        });
        toast(t("accounts.toast.added", { account: v.account.trim() }));
        onDone();
      }}
    />
  );
}

interface EditProps {
  t: TFunction;
  me: Me;
  row: AccountRow;
  onClose: () => void;
  onDone: () => void;
}

/** Edit account: loads the full record first, then the same form without login and password. */
export function EditAccountDialog({ t, me, row, onClose, onDone }: EditProps) {
  const [detail, setDetail] = useState<AccountDetail | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<AccountDetail>(`/v3/new/account/detail?id=${encodeURIComponent(row.id)}`)
      .then(setDetail, (e) => setError((e as Error).message || t("ui.requestError")));
  }, [row.id]);

  if (!detail) {
    return (
      <Modal
        title={t("accounts.dialogs.edit", { account: row.account })}
        onClose={onClose}
        closeLabel={t("ui.close")}
      >
        {error
          ? <div class="form-error" role="alert">{error}</div>
          : <p class="empty">{t("ui.loading")}</p>}
      </Modal>
    );
  }
  const locked = detail.accountType === ACCOUNT_TYPES.enterprise;
  const initial = {
    account: detail.account,
    nickName: detail.nickName,
    accountType: String(detail.accountType),
    contact: detail.contact,
    phone: detail.phone,
    email: detail.email,
    companyName: detail.companyName,
    expiration: detail.expiration ?? "",
    description: detail.description,
  };
  return (
    <AccountForm
      t={t}
      edit
      types={editableTypes(me.accountType, detail.accountType)}
      typeLocked={locked}
      superiorLabel={detail.parentAccount}
      initial={initial}
      permissions={{ ...ALL_ON, ...detail.permissions }}
      onClose={onClose}
      save={async (v, permissions) => {
        const type = Number(v.accountType);
        await api("/v3/new/account/update", {
          id: detail.id,
          nickName: v.nickName.trim(),
          contact: v.contact.trim(),
          phone: v.phone.trim(),
          email: v.email.trim(),
          companyName: v.companyName.trim(),
          description: v.description,
          permissions,
          ...(!locked && type !== detail.accountType ? { accountType: type } : {}),
          // Only a changed expiry is sent: the server checks it against the superior's.
          ...(v.expiration !== initial.expiration ? { expiration: v.expiration || null } : {}),
        });
        toast(t("accounts.toast.updated", { account: detail.account }));
        onDone();
      }}
    />
  );
}

type FormValues = {
  account: string;
  nickName: string;
  password?: string;
  confirmPassword?: string;
  accountType: string;
  contact: string;
  phone: string;
  email: string;
  companyName: string;
  expiration: string;
  description: string;
  nodeId?: string;
};

interface FormProps<V extends FormValues> {
  t: TFunction;
  edit?: boolean;
  types: number[];
  typeLocked?: boolean;
  superiorLabel: string;
  initial: V;
  permissions: Permissions;
  onClose: () => void;
  save: (values: V, permissions: Permissions) => Promise<void>;
}

/** The add/edit form: one layout, with login, password and node only when adding. */
function AccountForm<V extends FormValues>(p: FormProps<V>) {
  const { t, edit } = p;
  const form = useForm<Record<string, string>>(p.initial as Record<string, string>, t);
  const [permissions, setPermissions] = useState(p.permissions);
  const label = (k: string) => t(`accounts.fields.${k}`);
  const labels = Object.fromEntries(Object.keys(p.initial).map((k) => [k, label(k)]));
  const rules = {
    ...(edit ? {} : {
      account: RULES.account,
      password: RULES.password,
      confirmPassword: [sameAs(() => form.values.password)],
    }),
    nickName: RULES.nickName,
    contact: RULES.contact,
    phone: RULES.phone,
    email: RULES.email,
    companyName: RULES.companyName,
    expiration: RULES.expiration,
    description: RULES.description,
  };
  const typeOptions = p.types.map((v) => ({
    value: String(v),
    label: t(`shell.accountTypes.${v}`),
  }));
  return (
    <FormDialog
      t={t}
      title={edit
        ? t("accounts.dialogs.edit", { account: p.initial.account })
        : t("accounts.dialogs.add")}
      width={760}
      busy={form.busy}
      formError={form.formError}
      onClose={p.onClose}
      onSubmit={() => form.submit(rules, labels, () => p.save(form.values as V, permissions))}
    >
      <div class="form-grid">
        <Input
          form={form}
          name="account"
          label={label("account")}
          required={!edit}
          disabled={edit}
          maxLength={50}
        />
        <Input form={form} name="nickName" label={label("nickName")} required maxLength={25} />
        {!edit && (
          <NewPasswordFields
            form={form}
            labels={{ password: label("password"), confirmPassword: label("confirmPassword") }}
          />
        )}
        <Select
          form={form}
          name="accountType"
          label={label("accountType")}
          required
          options={typeOptions}
          disabled={p.typeLocked}
          hint={p.typeLocked ? t("accounts.form.typeLocked") : undefined}
        />
        <div>
          <Field
            label={label("superior")}
            hint={edit ? undefined : t("accounts.form.superiorHint")}
          >
            <input name="superior" value={p.superiorLabel} disabled />
          </Field>
        </div>
        <Input form={form} name="contact" label={label("contact")} maxLength={100} />
        <Input form={form} name="phone" kind="tel" label={label("phone")} maxLength={20} />
        <Input form={form} name="email" kind="email" label={label("email")} maxLength={100} />
        <Input form={form} name="companyName" label={label("companyName")} maxLength={100} />
        <Input
          form={form}
          name="expiration"
          kind="date"
          label={label("expiration")}
          hint={t(edit ? "accounts.form.expiryHintEdit" : "accounts.form.expiryHintAdd")}
        />
        {!edit && (
          <Select
            form={form}
            name="nodeId"
            label={label("nodeId")}
            options={[
              { value: "", label: t("accounts.form.nodeInherit") },
              ...NODES.map(([id, key]) => ({
                value: String(id),
                label: `${id} · ${t(`nodes.${key}`)}`,
              })),
            ]}
          />
        )}
        <Input
          form={form}
          name="description"
          kind="textarea"
          label={label("description")}
          wide
          maxLength={2000}
        />
      </div>
      <FlagChecks
        legend={t("accounts.form.permissions")}
        keys={PERMISSION_FLAGS}
        label={(k) => t(`accounts.permissions.${k}`)}
        checked={permissions}
        onChange={setPermissions}
      />
    </FormDialog>
  );
}
