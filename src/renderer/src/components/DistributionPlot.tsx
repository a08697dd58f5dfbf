/**
 * The reference population's genetic-score distribution with the person's position marked,
 * drawn as plain SVG. Background bands show the five levels (10/20/40/20/10 % of people).
 */
import { useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { percentileFigure, percentileSentence, percentileWords } from '../lib/format.js';

interface Props {
  density: Array<[number, number]>;
  score: number;
  percentile: number;
  level: number;
  traitName: string;
  /** Off the scale: beyond the 99.9th or below the 0.1st percentile. */
  bound?: 'below_0.1' | 'above_99.9' | null;
  /** The levels any genotype can reach for this score; the legend offers only these. */
  reachableLevels?: number[];
  /** The reference, named in the caption. */
  referenceText?: string;
  /** Percentile bounds between levels. */
  bounds?: readonly number[];
}

const W = 720;
const H = 230;
const PAD = { left: 16, right: 16, top: 34, bottom: 44 };

/** x where the cumulative distribution reaches each fraction (trapezoid integration). */
function quantiles(points: Array<[number, number]>, fractions: number[]): number[] {
  const cum: number[] = [0];
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    cum.push(cum[i - 1] + ((y0 + y1) / 2) * (x1 - x0));
  }
  const total = cum[cum.length - 1] || 1;
  return fractions.map((f) => {
    const target = f * total;
    for (let i = 1; i < cum.length; i++) {
      if (cum[i] >= target) {
        const span = cum[i] - cum[i - 1] || 1;
        const t = (target - cum[i - 1]) / span;
        return points[i - 1][0] + t * (points[i][0] - points[i - 1][0]);
      }
    }
    return points[points.length - 1][0];
  });
}

/**
 * Tick labels' size in the drawing's units, the smallest size on screen (px) they shrink to,
 * and the largest size in the drawing's units that stays clear of the axis labels below.
 */
const TICK_FONT = 11.5;
const MIN_TICK_PX = 11;
const MAX_TICK_FONT = 18;
/** Space kept between two tick labels, in ems. */
const TICK_GAP_EM = 0.6;

/**
 * An upper bound of a tick label's width in ems: digits are at most 0.6 em wide in the
 * app's fonts, "%" at most 0.95 em.
 */
function labelEms(text: string): number {
  let w = 0;
  for (const ch of text) w += ch === '%' ? 0.95 : 0.6;
  return w;
}

interface Tick {
  x: number;
  label: string;
  /** Where the label's middle sits: at the tick, or moved inside the axis at its ends. */
  labelX: number;
}

/**
 * The ticks whose labels fit side by side at this size: the edges of the person's own level
 * first (they bound the range the plot highlights), then the others from the middle out; a
 * label that would overlap one already placed is left out (its tick line stays). Labels
 * near an end of the axis are moved inside it.
 */
function chooseTicks(
  cuts: Array<{ x: number; label: string }>,
  level: number,
  fontUnits: number,
  axis: { left: number; right: number },
): Tick[] {
  const order = cuts
    .map((c, i) => ({ ...c, i }))
    .sort((a, b) => {
      // cut i separates level i+1 from level i+2
      const own = (c: { i: number }) => (c.i + 1 === level || c.i + 2 === level ? 0 : 1);
      return own(a) - own(b) || Math.abs(a.i - (cuts.length - 1) / 2) - Math.abs(b.i - (cuts.length - 1) / 2);
    });
  const placed: Array<Tick & { half: number }> = [];
  const gap = TICK_GAP_EM * fontUnits;
  for (const c of order) {
    const half = (labelEms(c.label) * fontUnits) / 2;
    const labelX = Math.min(axis.right - half, Math.max(axis.left + half, c.x));
    if (placed.some((p) => Math.abs(p.labelX - labelX) < p.half + half + gap)) continue;
    placed.push({ x: c.x, label: c.label, labelX, half });
  }
  return placed.sort((a, b) => a.x - b.x).map(({ x, label, labelX }) => ({ x, label, labelX }));
}

/** The element's width in CSS pixels, followed as it changes (null before the first layout). */
function useWidth(ref: RefObject<Element | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

const LEVEL_NAMES = [
  'Much lower than average',
  'Lower than average',
  'Average',
  'Higher than average',
  'Much higher than average',
];

export function DistributionPlot({
  density,
  score,
  percentile,
  level,
  traitName,
  bound,
  reachableLevels,
  referenceText,
  bounds = [10, 30, 70, 90],
}: Props) {
  const titleId = useId();
  const descId = useId();
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure);
  const geom = useMemo(() => {
    const pts = density.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)).sort((a, b) => a[0] - b[0]);
    if (pts.length < 2) return null;
    const xMin = pts[0][0];
    const xMax = pts[pts.length - 1][0];
    const yMax = Math.max(...pts.map((p) => p[1])) || 1;
    const iw = W - PAD.left - PAD.right;
    const ih = H - PAD.top - PAD.bottom;
    const sx = (x: number) => PAD.left + ((x - xMin) / (xMax - xMin || 1)) * iw;
    const sy = (y: number) => PAD.top + ih - (y / yMax) * ih;
    const line = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join('');
    const base = PAD.top + ih;
    const area = `${line}L${sx(xMax).toFixed(1)},${base}L${sx(xMin).toFixed(1)},${base}Z`;
    const cuts = quantiles(
      pts,
      bounds.map((b) => b / 100),
    ).map(sx);
    const edges = [PAD.left, ...cuts, PAD.left + iw];
    const clamped = Math.min(xMax, Math.max(xMin, score));
    const px = sx(clamped);
    // density at the person's score, by linear interpolation
    let py = base;
    for (let i = 1; i < pts.length; i++) {
      if (pts[i][0] >= clamped) {
        const [x0, y0] = pts[i - 1];
        const [x1, y1] = pts[i];
        const t = (clamped - x0) / (x1 - x0 || 1);
        py = sy(y0 + t * (y1 - y0));
        break;
      }
    }
    // the area left of the person: the share of people with a lower score
    const leftPts = pts.filter(([x]) => x <= clamped);
    const left =
      leftPts.length > 0
        ? `${leftPts.map(([x, y], i) => `${i ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join('')}L${px.toFixed(1)},${py.toFixed(1)}L${px.toFixed(1)},${base}L${sx(xMin).toFixed(1)},${base}Z`
        : '';
    return { line, area, left, edges, px, py, base, iw };
  }, [density, score, bounds]);

  if (!geom) return <p className="muted">The reference distribution is not available for this trait.</p>;
  const { line, area, left, edges, px, py, base } = geom;
  // The drawing scales with the figure; tick labels keep at least MIN_TICK_PX on screen, and
  // only those that fit side by side at that size are written.
  const scale = width ? width / W : 1;
  const tickFont = Math.min(MAX_TICK_FONT, Math.max(TICK_FONT, MIN_TICK_PX / scale));
  const ticks = chooseTicks(
    edges.slice(1, -1).map((x, i) => ({ x, label: `${bounds[i]}%` })),
    level,
    tickFont,
    { left: PAD.left, right: W - PAD.right },
  );
  const labelW = 132;
  const labelX = Math.min(W - PAD.right - labelW, Math.max(PAD.left, px - labelW / 2));
  const words = percentileWords({ percentile, percentile_bound: bound });
  // "beyond the 99.9th percentile" stands alone; "the 63rd percentile" needs "at".
  const place = bound ? words : `at the ${words}`;
  const where = `${bound ? '' : 'at the '}${percentileSentence(percentile, bound)}`;
  const lowerShare =
    bound === 'above_99.9'
      ? 'more than 99.9'
      : bound === 'below_0.1'
        ? 'fewer than 0.1'
        : String(Math.min(99, Math.max(1, Math.round(percentile))));
  const reachable = (reachableLevels?.length ? reachableLevels : [1, 2, 3, 4, 5]).filter((l) => l >= 1 && l <= 5);
  const captionId = `${titleId}-caption`;

  return (
    <figure className="plot" data-testid="distribution-plot" aria-labelledby={captionId} ref={figure}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={titleId}>{`Distribution of ${traitName} genetic scores in the reference population`}</title>
        <desc id={descId}>{`Your score is ${where}.`}</desc>
        {edges.slice(0, -1).map((x0, i) => (
          <rect
            key={i}
            className={`plot-band band-${i + 1} ${i + 1 === level ? 'is-current' : ''}`}
            x={x0}
            y={PAD.top - 8}
            width={Math.max(0, edges[i + 1] - x0)}
            height={base - PAD.top + 8}
          />
        ))}
        <path className="plot-area" d={area} />
        {left ? <path className="plot-area-left" d={left} /> : null}
        <path className="plot-line" d={line} />
        <line className="plot-axis" x1={PAD.left} x2={W - PAD.right} y1={base} y2={base} />
        {edges.slice(1, -1).map((x, i) => (
          <line key={i} className="plot-tick" x1={x} x2={x} y1={base} y2={base + 5} />
        ))}
        {ticks.map((t) => (
          <text
            key={t.label}
            className="plot-tick-label"
            x={t.labelX}
            y={base + 8 + tickFont}
            textAnchor="middle"
            style={{ fontSize: tickFont }}
          >
            {t.label}
          </text>
        ))}
        <text className="plot-axis-label" x={PAD.left} y={H - 6}>
          ← Lower genetic score
        </text>
        <text className="plot-axis-label" x={W - PAD.right} y={H - 6} textAnchor="end">
          Higher genetic score →
        </text>
        <line className="plot-marker" x1={px} x2={px} y1={PAD.top - 2} y2={base} />
        <circle className="plot-dot" cx={px} cy={py} r={6} />
        <g transform={`translate(${labelX}, 4)`}>
          <rect className="plot-label-bg" width={labelW} height={24} rx={12} />
          <text className="plot-label" x={labelW / 2} y={16.5} textAnchor="middle">
            {`You · ${percentileFigure({ percentile, percentile_bound: bound })} pct.`}
          </text>
        </g>
      </svg>
      <figcaption className="plot-caption" id={captionId}>
        <span className="plot-caption-text">
          Genetic scores of {traitName} in the reference population{referenceText ? ` (${referenceText})` : ''}; yours
          is {place}.
        </span>
        <span className="plot-legend">
          <span>
            <span className="legend-swatch swatch-left" aria-hidden="true" /> People with a lower score than you (
            {lowerShare} %)
          </span>
          <span>
            <span className="legend-swatch swatch-band" aria-hidden="true" /> Your level’s range
          </span>
        </span>
        <span className="plot-levels">
          Levels this score can reach: {reachable.map((l) => `${l} ${LEVEL_NAMES[l - 1].toLowerCase()}`).join(' · ')}
          {reachable.length < 5 ? '. No genotype reaches the others.' : ''}
        </span>
      </figcaption>
    </figure>
  );
}
