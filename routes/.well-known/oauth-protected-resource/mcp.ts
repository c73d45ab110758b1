// GET /.well-known/oauth-protected-resource/mcp — the same metadata at the path RFC 9728 section 3.1 derives from BASE_URL/mcp
export { GET } from "../oauth-protected-resource";
