// POST /api/auth/login — a dashboard session from email and password (for the account routes)
import { LoginRequest, LoginResponse, login } from "../../../lib/auth/sessions";
import { route } from "../../../server/route";
import { getState } from "../../../server/state";

export const POST = route({
  summary: "Sign in to the dashboard (email and password)",
  operationId: "login",
  description: "Returns a session token for the account, team and key-management routes, which API keys cannot use.",
  tags: ["account"],
  auth: "public",
  body: LoginRequest,
  response: LoginResponse,
  errors: [401, 429],
  handler: ({ deps, body, request }) => login(deps.db, body, getState(request)?.ip ?? null),
});
