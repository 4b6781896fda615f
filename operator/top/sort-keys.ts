// How `top` can sort its rows: here alone, with no imports, so the command line can offer the choices
// without loading `top`.
export const SORT_KEYS = ['kind', 'name', 'in', 'out', 'errors', 'drops', 'pending'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
