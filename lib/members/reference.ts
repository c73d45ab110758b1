// A member's creditor reference lives with the payments it names (lib/payments/reference.ts);
// kept here for the callers that know it by this path.
export * from "../payments/reference";
