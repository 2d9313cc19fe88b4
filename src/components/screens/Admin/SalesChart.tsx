import React, {useId, useLayoutEffect, useRef, useState} from 'react';
import {appConfig} from '../../../config';
import type {SalesDay, SalesSummary} from '../../../config/api';
import {DataTable, type Column} from './DataTable';
import {day, money, month, PERIODS} from './format';
import styles from './styles.module.css';

/** The plans' colours, in the config's order; a plan the config no longer has comes after them. */
const COLOURS = ['#0d645e', '#d97706', '#4f46e5', '#be185d', '#475569'];
/** Drawn at the width it is shown at, so its text keeps its size on a phone and on a desktop. */
const HEIGHT = 220;
const AREA = {left: 56, top: 12, right: 24, bottom: 28};

const total = (entry: SalesDay) => Object.values(entry.byPlan).reduce((sum, amount) => sum + amount, 0);

/** The plans that sold in these days, the config's plans first and in its order. */
export function plansSold(days: SalesDay[]): string[] {
  const sold = new Set(days.flatMap((entry) => Object.keys(entry.byPlan)));
  const known: string[] = appConfig.plans.map((plan) => plan.name).filter((name) => sold.has(name));
  return [...known, ...[...sold].filter((name) => !known.includes(name)).sort()];
}

/** A round top for the scale: 1, 2 or 5 times a power of ten, at least the highest day. */
function scaleTop(highest: number): number {
  if (highest <= 0) return 100;
  const power = 10 ** Math.floor(Math.log10(highest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= highest)!;
}

/** The element's width in CSS pixels, followed as it changes (640 until it is measured). */
function useWidth<T extends Element>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Revenue by day and plan as stacked bars, drawn by hand in SVG: one image with a title and a
 * description for screen readers, a legend, and every number in a table below it.
 */
export default function SalesChart({summary}: {summary: SalesSummary}) {
  const id = useId();
  const [frame, outer] = useWidth<HTMLElement>();
  const {days, currency, interval} = summary;
  const monthly = interval === 'month';
  const bucket = monthly ? 'month' : 'day';
  const named = (entry: SalesDay) => (monthly ? month(entry.day) : day(entry.day));
  // A label every few bars, counted back from the latest, so they never crowd on a phone: each day
  // of a week, a day a week, a month a quarter, and a multiple of those for a long history.
  const step = monthly ? 3 : 7;
  const every = days.length <= 7 ? 1 : Math.ceil(days.length / 5 / step) * step;
  const plans = plansSold(days);
  const colour = (plan: string) => COLOURS[plans.indexOf(plan) % COLOURS.length];
  const sums = days.map(total);
  const top = scaleTop(Math.max(0, ...sums));
  const width = outer - AREA.left - AREA.right;
  const height = HEIGHT - AREA.top - AREA.bottom;
  const slot = width / Math.max(1, days.length);
  const y = (amount: number) => AREA.top + height - (amount / top) * height;
  const byPlan = plans.map((plan) => ({plan, amount: days.reduce((sum, entry) => sum + (entry.byPlan[plan] ?? 0), 0)}));
  const best = sums.indexOf(Math.max(0, ...sums));
  const purchases = days.reduce((sum, entry) => sum + entry.purchases, 0);
  const range = days.length ? `${named(days[0]!)} to ${named(days[days.length - 1]!)}` : 'no days';
  const description =
    `${range}: ${money(
      sums.reduce((a, b) => a + b, 0),
      currency,
    )} from ${purchases} purchases` +
    (sums[best] ? `; best day ${day(days[best]!.day)} with ${money(sums[best]!, currency)}` : '') +
    (byPlan.length
      ? `. By plan: ${byPlan.map(({plan, amount}) => `${plan} ${money(amount, currency)}`).join(', ')}.`
      : '.');

  const columns: Column<SalesDay>[] = [
    {label: monthly ? 'Month' : 'Day', cell: named},
    ...plans.map((plan) => ({label: plan, cell: (entry: SalesDay) => money(entry.byPlan[plan] ?? 0, currency)})),
    {label: 'Total', cell: (entry) => money(total(entry), currency)},
    {label: 'Purchases', cell: (entry) => entry.purchases},
  ];

  return (
    <figure className={styles.chart} ref={frame}>
      <svg
        width={outer}
        height={HEIGHT}
        viewBox={`0 0 ${outer} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>
          Revenue by {bucket} and plan, {PERIODS[summary.period].toLowerCase()}
        </title>
        <desc id={`${id}-desc`}>{description}</desc>
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line x1={AREA.left} x2={outer - AREA.right} y1={y(tick)} y2={y(tick)} className={styles.gridLine} />
            <text x={AREA.left - 6} y={y(tick) + 4} textAnchor="end" className={styles.axisText}>
              {money(tick, currency).replace(/\.00$/, '')}
            </text>
          </g>
        ))}
        {days.map((entry, index) => {
          let base = 0;
          const x = AREA.left + index * slot + slot * 0.15;
          return (
            <g key={entry.day}>
              {plans.map((plan) => {
                const amount = entry.byPlan[plan] ?? 0;
                if (!amount) return null;
                const rect = (
                  <rect
                    key={plan}
                    x={x}
                    width={slot * 0.7}
                    y={y(base + amount)}
                    height={y(base) - y(base + amount)}
                    style={{fill: colour(plan)}}
                  />
                );
                base += amount;
                return rect;
              })}
              {(days.length - 1 - index) % every === 0 && (
                <text x={x + slot * 0.35} y={HEIGHT - 8} textAnchor="middle" className={styles.axisText}>
                  {monthly ? month(entry.day) : day(entry.day).replace(/ \d{4}$/, '')}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className={styles.legend}>
          {byPlan.map(({plan, amount}) => (
            <li key={plan}>
              <span className={styles.swatch} style={{background: colour(plan)}} aria-hidden="true" />
              {plan}: {money(amount, currency)}
            </li>
          ))}
        </ul>
        <details className={styles.numbers}>
          <summary>
            The numbers, {bucket} by {bucket}
          </summary>
          <DataTable
            caption={`Revenue by ${bucket} and plan`}
            columns={columns}
            rows={days}
            rowKey={(entry) => entry.day}
            empty="No days."
          />
        </details>
      </figcaption>
    </figure>
  );
}
