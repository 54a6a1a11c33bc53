/**
 * Translation resources, one JSON file per area and language: locales/<lang>/<area>.json
 * becomes the top-level key <area>. Imported statically so bundles and the compiled binary
 * carry them. Add a new area to both languages and to the two lists below.
 */
import enCommon from "../../locales/en/common.json" with { type: "json" };
import enErrors from "../../locales/en/errors.json" with { type: "json" };
import enNodes from "../../locales/en/nodes.json" with { type: "json" };
import enValidation from "../../locales/en/validation.json" with { type: "json" };
import zhCommon from "../../locales/zh/common.json" with { type: "json" };
import zhErrors from "../../locales/zh/errors.json" with { type: "json" };
import zhNodes from "../../locales/zh/nodes.json" with { type: "json" };
import zhValidation from "../../locales/zh/validation.json" with { type: "json" };

export const RESOURCES = {
  en: { common: enCommon, errors: enErrors, nodes: enNodes, validation: enValidation },
  zh: { common: zhCommon, errors: zhErrors, nodes: zhNodes, validation: zhValidation },
};
