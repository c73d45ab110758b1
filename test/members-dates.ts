// Date helpers of the members tests (the same as lib's, re-exported for readability).
export { addDays, addMonths, periodEnd } from "../lib/members/internal";
export { todayUtc } from "../lib/members/status";
