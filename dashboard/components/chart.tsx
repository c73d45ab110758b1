// A bar chart drawn on the server as SVG (no script, no library): one bar per period, the largest
// value labelled on the axis, each bar titled with its exact figure; the same figures follow in a
// table inside <details>, for screen readers and for whoever wants the numbers.
import { h, type Html } from "../jsx";

export type Bar = { label: string; value: number; text: string };

const WIDTH = 600;
const HEIGHT = 200;
const LEFT = 8;
const BOTTOM = 24;
const TOP = 16;

export function BarChart(props: {
  id: string;
  caption: string;
  bars: Bar[];
  maxText: (max: number) => string;
  labelHeading: string;
  valueHeading: string;
}): Html {
  const { bars } = props;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = (WIDTH - LEFT) / Math.max(1, bars.length);
  const barWidth = Math.max(2, slot * 0.7);
  const plot = HEIGHT - BOTTOM - TOP;
  return (
    <figure class="chart card" aria-labelledby={`${props.id}-caption`}>
      <figcaption id={`${props.id}-caption`}>{props.caption}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${props.id}-caption`} focusable="false">
        <title>{props.caption}</title>
        <line class="axis" x1={LEFT} y1={HEIGHT - BOTTOM} x2={WIDTH} y2={HEIGHT - BOTTOM} />
        <text x={LEFT} y={TOP - 4}>
          {props.maxText(max)}
        </text>
        {bars.map((b, i) => {
          const height = b.value > 0 ? Math.max(1, (b.value / max) * plot) : 0;
          const x = LEFT + i * slot + (slot - barWidth) / 2;
          return (
            <g>
              <rect class="bar" x={x.toFixed(1)} y={(HEIGHT - BOTTOM - height).toFixed(1)} width={barWidth.toFixed(1)} height={height.toFixed(1)}>
                <title>{`${b.label}: ${b.text}`}</title>
              </rect>
              {i % Math.ceil(bars.length / 6) === 0 ? (
                <text x={(x + barWidth / 2).toFixed(1)} y={HEIGHT - 6} text-anchor="middle">
                  {b.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
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
