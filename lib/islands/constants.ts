/** Names shared by the server renderer and the client boot script. */

/** Tag of the element wrapping each island's markup. */
export const MARKER_TAG = "tp-island";

/**
 * Tag of the element wrapping server-rendered children (a slot) inside an island's markup, and
 * the attribute naming the island (its data-props index) a `<tp-slot>` or `<template>` belongs to.
 */
export const SLOT_TAG = "tp-slot";
export const SLOT_OWNER_ATTR = "data-for";

/** id of the JSON script holding island URLs and props. */
export const PROPS_SCRIPT_ID = "__tp_props";
