// Everything the MCP server offers: its tools (each area adds its module's here), resources,
// prompts and the instructions it gives an assistant.
import * as cards from "./tools/cards";
import * as clubs from "./tools/clubs";
import * as events from "./tools/events";
import * as invoices from "./tools/invoices";
import * as mailings from "./tools/mailings";
import * as members from "./tools/members";
import * as payments from "./tools/payments";
import * as tiers from "./tools/tiers";
import * as webhooks from "./tools/webhooks";
import type { ToolDef } from "./tool";

export { INSTRUCTIONS } from "./instructions";
export { PROMPTS, type PromptDef } from "./prompts";
export { CLUB_SCHEME, RESOURCES, type ResourceDef, resourceUri } from "./resources";

export const TOOLS: ToolDef[] = [
  ...Object.values(clubs),
  ...Object.values(members),
  ...Object.values(tiers),
  ...Object.values(events),
  ...Object.values(cards),
  ...Object.values(webhooks),
  ...Object.values(payments),
  ...Object.values(invoices),
  ...Object.values(mailings),
] as ToolDef[];
