// The one place a scope is checked. A lib/ verb declares the scope it needs with `verb()`; the
// HTTP loader checks that scope before the body is validated, and the verb checks it again when
// called, so an MCP tool, the CLI or a future caller can never skip it.
import type { Ctx } from "../context";
import { Forbidden } from "../errors";
import { hasScope, type Scope } from "./scopes";
import type { Caller } from "./caller";

export function requireScope(actor: Caller, ...scopes: Scope[]): void {
  for (const scope of scopes) if (!hasScope(actor.scopes, scope)) throw new Forbidden("SCOPE_MISSING", { scope });
}

export type Verb<I, O> = ((ctx: Ctx, input: I) => Promise<O>) & { scope: Scope };

/** A lib/ operation guarded by `scope` (DESIGN.md section 4's route table). */
export function verb<I, O>(scope: Scope, fn: (ctx: Ctx, input: I) => Promise<O>): Verb<I, O> {
  const guarded = async (ctx: Ctx, input: I) => {
    requireScope(ctx.actor, scope);
    return fn(ctx, input);
  };
  return Object.assign(guarded, { scope });
}
