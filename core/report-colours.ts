/** The report charts' colours: the pie's slices in order, and the "Other categories" slice (the page's legend matches). */
export const REPORT_COLOURS = ["#0f766e", "#2563eb", "#d97706", "#9333ea", "#db2777", "#65a30d", "#0891b2", "#b45309"];
export const OTHER_COLOUR = "#94a3b8";
/** The pie's last slice: every category after the top ones (always grey). */
export const OTHER_CATEGORIES = "__rest";
