/** Account info export (spec console §9: allowed once every ten minutes per account). */
export const ACCOUNT_INFO_EXPORT_MINUTES = 10;
/** Most sub-accounts listed in one export (a larger subtree is cut, and says so). */
export const ACCOUNT_INFO_MAX_ROWS = 30_000;
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
