// A progress bar for long CLI commands, drawn on stderr only when stderr is a terminal: piped or
// redirected output (logs, scripts, `--json` consumers) gets no bar and no stray characters.
import { writeSync } from "node:fs";

export type ProgressOptions = {
  /** Whether the target is a terminal (default: stderr's). Nothing is drawn otherwise. */
  isTTY?: boolean;
  /** Where the text goes (default: stderr, written synchronously so it shows during a long transaction). */
  write?: (text: string) => void;
  /** Below this total, nothing is drawn (small files finish before a bar is useful). */
  minTotal?: number;
  width?: number;
};

export type Progress = { update(done: number, total: number): void; finish(): void };

/** A bar such as `import  [#########-----------]  45%  2,250/5,000 lines`, redrawn in place. */
export function progressBar(label: string, unit: string, options: ProgressOptions = {}): Progress {
  const isTTY = options.isTTY ?? process.stderr.isTTY === true;
  const write = options.write ?? ((text: string) => writeSync(2, text));
  const minTotal = options.minTotal ?? 500;
  const width = options.width ?? 30;
  let drawn = false;
  let lastPercent = -1;
  let lastAt = 0;
  return {
    update(done, total) {
      if (!isTTY || total < minTotal) return;
      const percent = Math.floor((100 * Math.min(done, total)) / total);
      const now = performance.now();
      // Redraw when the percentage moves, at most every 50 ms, and always at the end.
      if (percent === lastPercent || (done < total && now - lastAt < 50)) return;
      lastPercent = percent;
      lastAt = now;
      const filled = Math.round((width * percent) / 100);
      write(
        `\r${label}  [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)}%  ` +
          `${done.toLocaleString("en")}/${total.toLocaleString("en")} ${unit}\x1b[K`,
      );
      drawn = true;
    },
    finish() {
      if (drawn) write("\n");
      drawn = false;
    },
  };
}
