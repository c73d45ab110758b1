// A table of records (keys, webhooks, deliveries, audit rows): its columns declared once, each
// cell labelled with its column (`data-label`), so that on a phone the table reads as a list of
// cards (`table.stacked` in dashboard.css) instead of scrolling sideways.
import { type Child, h, type Html } from "../jsx";

export type Column = {
  label: string;
  /** Classes of the column's header and cells: `num`, `wrap`, `hide-small`. */
  class?: string;
  /** A column of buttons: its header only for screen readers, its cells unlabelled. */
  actions?: true;
};

/** `compact`: on a phone each cell's label stands before its value on the same line (short values: figures, dates). */
export function RecordTable(props: { columns: Column[]; rows: Child[][]; compact?: boolean }): Html {
  return (
    <div class="table-wrap">
      <table class={props.compact ? "stacked compact" : "stacked"}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" class={c.class}>
                {c.actions ? <span class="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((cells) => (
            <tr>
              {cells.map((cell, i) => (
                <td class={props.columns[i]?.class} data-label={props.columns[i]?.actions ? undefined : props.columns[i]?.label}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
