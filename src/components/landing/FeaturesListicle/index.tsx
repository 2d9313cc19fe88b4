import React, {useEffect, useRef, useState, type KeyboardEvent} from 'react';
import clsx from 'clsx';
import {landing, type FeatureTab} from '../../../config';
import {useSectionAnchor} from '../../../lib/useSectionAnchor';
import CheckList from '../../shared/CheckList';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

/** §4: the next tab every 5 s until the visitor clicks one or scrolls past. */
export const ROTATION_MS = 5000;
/** Share of the end marker that must show before rotation stops (§9). */
export const END_MARKER_THRESHOLD = 0.5;

export interface FeaturesListicleProps {
  title?: string;
  subtitle?: string;
  tabs?: readonly FeatureTab[];
}

const icons: Record<FeatureTab['icon'], string> = {
  email:
    'M3 6.5A2.5 2.5 0 0 1 5.5 4h13A2.5 2.5 0 0 1 21 6.5v11a2.5 2.5 0 0 1-2.5 2.5h-13A2.5 2.5 0 0 1 3 17.5zm2.2-.5 6.8 5.3L18.8 6zM19 8.2l-7 5.4-7-5.4v9.3c0 .3.2.5.5.5h13c.3 0 .5-.2.5-.5z',
  payment:
    'M2 7a3 3 0 0 1 3-3h14a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H5a3 3 0 0 1-3-3zm2 2h16V7a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1zm16 3H4v5a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1zM6 15h4v1.5H6z',
};

export default function FeaturesListicle({
  title = landing.features.title,
  subtitle = landing.features.subtitle,
  tabs = landing.features.tabs,
}: FeaturesListicleProps) {
  const id = useSectionAnchor('features');
  const [active, setActive] = useState(0);
  const [rotating, setRotating] = useState(true);
  const endMarker = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    if (!rotating || tabs.length < 2) return undefined;
    const timer = setInterval(() => setActive((index) => (index + 1) % tabs.length), ROTATION_MS);
    return () => clearInterval(timer);
  }, [rotating, tabs.length]);

  useEffect(() => {
    const marker = endMarker.current;
    if (!rotating || !marker || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= END_MARKER_THRESHOLD)) {
          setRotating(false);
        }
      },
      {threshold: END_MARKER_THRESHOLD},
    );
    observer.observe(marker);
    return () => observer.disconnect();
  }, [rotating]);

  function select(index: number) {
    setRotating(false);
    setActive(index);
  }

  // Arrow keys move between tabs, as the WAI-ARIA tabs pattern expects.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (active + step + tabs.length) % tabs.length;
    select(next);
    tabRefs.current[next]?.focus();
  }

  const tab = tabs[active];
  return (
    <LandingSection
      id={id}
      titleId="features-title"
      title={title}
      subtitle={subtitle}
      classNames={styles}
      after={<div ref={endMarker} className={styles.endMarker} data-testid="features-end" aria-hidden="true" />}>
      <div className={styles.tabs} role="tablist" aria-label="Features" onKeyDown={onKeyDown}>
        {tabs.map((item, index) => (
          <button
            key={item.name}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`feature-tab-${index}`}
            aria-selected={index === active}
            aria-controls="feature-panel"
            tabIndex={index === active ? 0 : -1}
            className={clsx(styles.tab, index === active && styles.tabActive)}
            onClick={() => select(index)}>
            <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true">
              <path d={icons[item.icon]} fill="currentColor" />
            </svg>
            <span>{item.name}</span>
          </button>
        ))}
      </div>
      <div
        id="feature-panel"
        role="tabpanel"
        aria-labelledby={`feature-tab-${active}`}
        className={styles.panel}
        key={tab.name}>
        <CheckList items={tab.items} />
        <p className={styles.saved}>
          Time saved: {tab.hoursSaved} {tab.hoursSaved === 1 ? 'hour' : 'hours'}
        </p>
      </div>
    </LandingSection>
  );
}
