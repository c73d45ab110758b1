// POST /api/auth/login — a dashboard session from email and password (for the account routes)
import { LOGIN_RATE, LoginRequest, LoginResponse, login } from "../../../lib/auth/sessions";
import { route } from "../../../server/route";

export const POST = route({
  summary: "Sign in to the dashboard (email and password)",
  operationId: "login",
  description: "Returns a session token for the account, team and key-management routes, which API keys cannot use.",
  tags: ["account"],
  auth: "public",
  rateLimit: LOGIN_RATE,
  body: LoginRequest,
  response: LoginResponse,
  errors: [401],
  handler: ({ ctx, body }) => login(ctx, body),
});
