// GET /admin — the overview: member counts by status, revenue by month, attendance by week.
import { clubStats } from "../../lib/stats";
import { OVERVIEW_TEXTS } from "../../lib/i18n/dashboard-overview";
import { h } from "../jsx";
import { definePage } from "../page";

export default definePage({
  nav: { id: "overview", path: "", scope: "members:view", order: 0 },
  routes: [
    {
      method: "GET",
      path: "/",
      scope: "finances:view",
      async handler(input) {
        const tt = OVERVIEW_TEXTS[input.locale];
        const stats = await clubStats(input.ctx, {});
        const counts = [
          ["total", stats.members.total],
          ["active", stats.members.active],
          ["expired", stats.members.expired],
          ["pending", stats.members.pending],
          ["suspended", stats.members.suspended],
          ["new_this_month", stats.members.new_this_month],
        ] as const;
        return input.page(
          input.t.nav.overview,
          <section aria-labelledby="counts">
            <h2 id="counts">{tt.members}</h2>
            <dl class="stats">
              {counts.map(([key, value]) => (
                <div>
                  <dt>{tt.count[key]}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          </section>,
        );
      },
    },
  ],
});
