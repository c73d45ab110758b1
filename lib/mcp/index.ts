// Every MCP tool the server offers. Each area adds its module's tools here.
import * as clubs from "./tools/clubs";
import * as events from "./tools/events";
import type { ToolDef } from "./tool";

export const TOOLS: ToolDef[] = [...Object.values(clubs), ...Object.values(events)] as ToolDef[];
