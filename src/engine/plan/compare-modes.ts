/** The periods --compare knows; apart from engine/plan/compare.ts so that declaring flags loads nothing heavy. */
export const COMPARE_MODES = ["previous", "year"] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];
