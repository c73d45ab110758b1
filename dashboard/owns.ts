// The addresses the dashboard answers, in a module of its own: app/ routes them to the dashboard
// without loading it (its pages load with its first request).
export function isDashboardPath(path: string): boolean {
  return path === "/admin" || path.startsWith("/admin/");
}
