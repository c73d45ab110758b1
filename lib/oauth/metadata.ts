// What the server publishes about its OAuth (DESIGN.md section 17, MCP authorization 2025-11-25):
// the protected resource, BASE_URL/mcp (RFC 9728), and the authorization server, BASE_URL itself
// (RFC 8414): public clients with PKCE S256 only, dynamic registration and client ID metadata
// documents, the key scopes. The authorize endpoint is the dashboard's consent page, so its
// sign-in, cookie and CSRF protection are the dashboard's.
import { SCOPES_SUPPORTED } from "./grants";

export const AUTHORIZE_PATH = "/admin/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
export const REVOKE_PATH = "/oauth/revoke";
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** The one protected resource: the MCP endpoint. Tokens are bound to it (their audience). */
export const mcpResource = (baseUrl: string) => `${baseUrl}/mcp`;

export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: mcpResource(baseUrl),
    authorization_servers: [baseUrl],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ["header"],
    resource_name: "Club MCP server",
    resource_documentation: `${baseUrl}/api/public/docs`,
  };
}

export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}${AUTHORIZE_PATH}`,
    token_endpoint: `${baseUrl}${TOKEN_PATH}`,
    registration_endpoint: `${baseUrl}${REGISTER_PATH}`,
    revocation_endpoint: `${baseUrl}${REVOKE_PATH}`,
    scopes_supported: SCOPES_SUPPORTED,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${baseUrl}/api/public/docs`,
  };
}
