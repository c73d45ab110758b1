// Every MCP tool the server offers. Each area adds its module's tools here.
import * as cards from "./tools/cards";
import * as clubs from "./tools/clubs";
import * as events from "./tools/events";
import * as members from "./tools/members";
import * as tiers from "./tools/tiers";
import type { ToolDef } from "./tool";

export const TOOLS: ToolDef[] = [
  ...Object.values(clubs),
  ...Object.values(members),
  ...Object.values(tiers),
  ...Object.values(events),
  ...Object.values(cards),
] as ToolDef[];
