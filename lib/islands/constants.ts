/** Names shared by the server renderer and the client boot script. */

/** Tag of the element wrapping each island's markup. */
export const MARKER_TAG = "tp-island";

/** id of the JSON script holding island URLs and props. */
export const PROPS_SCRIPT_ID = "__tp_props";
