// GET /admin — the overview: member counts by status, revenue by month, attendance by week
// (server-drawn SVG charts, dashboard/components/chart.tsx).
import { fill } from "../../lib/i18n/dashboard";
import { OVERVIEW_TEXTS } from "../../lib/i18n/dashboard-overview";
import { clubStats } from "../../lib/stats";
import { attendanceByWeek, revenueByMonth } from "../../lib/stats/series";
import { BarChart } from "../components/chart";
import { day, dayMonth, money, month } from "../format";
import { Fragment, h } from "../jsx";
import { definePage } from "../page";

/** The figures the page cannot go without: the counts and the revenue (attendance is shown to who may read it). */
const OVERVIEW_SCOPE = [clubStats.scope, revenueByMonth.scope].flat();

export default definePage({
  nav: { id: "overview", path: "", scope: OVERVIEW_SCOPE, order: 0 },
  routes: [
    {
      method: "GET",
      path: "/",
      scope: OVERVIEW_SCOPE,
      async handler(input) {
        const { ctx, locale } = input;
        const tt = OVERVIEW_TEXTS[locale];
        const [stats, revenue, attendance] = await Promise.all([
          clubStats(ctx, {}),
          revenueByMonth(ctx, {}),
          input.can(attendanceByWeek.scope) ? attendanceByWeek(ctx, {}) : Promise.resolve(null),
        ]);
        const counts = [
          ["total", stats.members.total],
          ["active", stats.members.active],
          ["expired", stats.members.expired],
          ["pending", stats.members.pending],
          ["suspended", stats.members.suspended],
          ["new_this_month", stats.members.new_this_month],
        ] as const;
        const currency = stats.currency;
        return input.page(
          input.t.nav.overview,
          <Fragment>
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
            </section>
            <div class="grid">
              <section aria-labelledby="revenue">
                <h2 id="revenue">{tt.revenue}</h2>
                <BarChart
                  id="revenue-chart"
                  caption={fill(tt.revenueCaption, { currency })}
                  bars={revenue.map((r) => ({ label: month(r.month, locale), value: r.gross_cents, text: money(r.gross_cents, currency, locale) }))}
                  maxText={(max) => money(max, currency, locale)}
                  empty={tt.revenueEmpty}
                  labelHeading={tt.month}
                  valueHeading={tt.amount}
                />
              </section>
              {attendance ? (
                <section aria-labelledby="attendance">
                  <h2 id="attendance">{tt.attendance}</h2>
                  <BarChart
                    id="attendance-chart"
                    caption={tt.attendanceCaption}
                    bars={attendance.map((w) => ({
                      label: day(w.week_start, locale),
                      short: dayMonth(w.week_start, locale),
                      value: w.unique_members,
                      text: String(w.unique_members),
                    }))}
                    maxText={(max) => String(max)}
                    empty={tt.attendanceEmpty}
                    labelHeading={tt.week}
                    valueHeading={tt.scans}
                  />
                </section>
              ) : null}
            </div>
          </Fragment>,
        );
      },
    },
  ],
});
