// A bar chart drawn on the server as SVG (no script, no library): one bar per period, the largest
// value labelled on the axis, each bar titled with its exact figure; the same figures follow in a
// table inside <details>, for screen readers and for whoever wants the numbers.
//
// An SVG scales its text with its width: one drawing shrank its 11-unit labels to 5 px on a
// phone. So the chart is drawn twice, wide (600 units, 6 labels) and narrow (320 units, 4
// labels, each bar's short label), and the stylesheet shows the one that fits the chart's own
// width (a container query): its labels render at 11 px or more from a 300 px chart up (12 x 300 / 320).
import { Fragment, h, type Html } from "../jsx";

/** A period's bar: `label` in the table and the bar's title, `short` (default `label`) under the axis. */
export type Bar = { label: string; short?: string; value: number; text: string };

type Drawing = { cls: string; width: number; height: number; labels: number };

const DRAWINGS: Drawing[] = [
  { cls: "chart-wide", width: 600, height: 210, labels: 6 },
  { cls: "chart-narrow", width: 320, height: 200, labels: 4 },
];
const LEFT = 8;
const BOTTOM = 26;
const TOP = 20;

function Svg(props: { d: Drawing; bars: Bar[]; max: number; maxText: string; captionId: string; caption: string }): Html {
  const { d, bars, max } = props;
  const slot = (d.width - LEFT) / Math.max(1, bars.length);
  const barWidth = Math.max(2, slot * 0.7);
  const plot = d.height - BOTTOM - TOP;
  const every = Math.ceil(bars.length / d.labels);
  return (
    <svg class={d.cls} viewBox={`0 0 ${d.width} ${d.height}`} role="img" aria-labelledby={props.captionId} focusable="false">
      <title>{props.caption}</title>
      <line class="axis" x1={LEFT} y1={d.height - BOTTOM} x2={d.width} y2={d.height - BOTTOM} />
      <text x={LEFT} y={TOP - 6}>
        {props.maxText}
      </text>
      {bars.map((b, i) => {
        const height = b.value > 0 ? Math.max(1, (b.value / max) * plot) : 0;
        const x = LEFT + i * slot + (slot - barWidth) / 2;
        return (
          <g>
            <rect class="bar" x={x.toFixed(1)} y={(d.height - BOTTOM - height).toFixed(1)} width={barWidth.toFixed(1)} height={height.toFixed(1)}>
              <title>{`${b.label}: ${b.text}`}</title>
            </rect>
            {i % every === 0 ? (
              <text x={(x + barWidth / 2).toFixed(1)} y={d.height - 7} text-anchor="middle">
                {b.short ?? b.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function BarChart(props: {
  id: string;
  caption: string;
  bars: Bar[];
  maxText: (max: number) => string;
  labelHeading: string;
  valueHeading: string;
  /** Said instead of the drawing while every bar is 0 (an axis scaled to "0.01" or "1" says nothing). */
  empty: string;
}): Html {
  const { bars } = props;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const captionId = `${props.id}-caption`;
  if (bars.every((b) => b.value <= 0))
    return (
      <figure class="chart card" aria-labelledby={captionId}>
        <figcaption id={captionId}>{props.caption}</figcaption>
        <p class="muted">{props.empty}</p>
      </figure>
    );
  return (
    <figure class="chart card" aria-labelledby={captionId}>
      <figcaption id={captionId}>{props.caption}</figcaption>
      <Fragment>
        {DRAWINGS.map((d) => (
          <Svg d={d} bars={bars} max={max} maxText={props.maxText(max)} captionId={captionId} caption={props.caption} />
        ))}
      </Fragment>
      <details>
        <summary>{props.valueHeading}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{props.labelHeading}</th>
              <th scope="col" class="num">
                {props.valueHeading}
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr>
                <td>{b.label}</td>
                <td class="num">{b.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
