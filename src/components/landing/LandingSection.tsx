import React, {useId, type ReactNode} from 'react';
import clsx from 'clsx';
import frame from './section.module.css';

export interface LandingSectionProps {
  /** The section's anchor, as `useSectionAnchor` registers it (`pricing` for /#pricing). */
  id?: string;
  /** The title's id, which labels the section; a generated one when absent. */
  titleId?: string;
  title: ReactNode;
  /** A short word in capitals above the title. */
  kicker?: ReactNode;
  /** A line under the title. */
  subtitle?: ReactNode;
  /**
   * The section's own look over the frame's, by part: its background, its column's width and gap,
   * its colours. A section passes its CSS module, whose `.section`, `.inner`, `.title` and
   * `.subtitle` classes, where it has them, style those parts.
   */
  classNames?: Partial<Record<'section' | 'inner' | 'title' | 'subtitle', string>>;
  /** The section's content, in the column under the title. */
  children?: ReactNode;
  /** What follows the column, still inside the section. */
  after?: ReactNode;
}

/**
 * The frame of a landing section: a `<section>` labelled by its h2 title, and a centred column
 * holding the title, an optional kicker and subtitle, and the content.
 */
export default function LandingSection({
  id,
  titleId,
  title,
  kicker,
  subtitle,
  classNames = {},
  children,
  after,
}: LandingSectionProps) {
  const generatedId = `${useId()}-title`;
  const headingId = titleId ?? generatedId;
  return (
    <section id={id} className={classNames.section} aria-labelledby={headingId}>
      <div className={clsx(frame.inner, classNames.inner)}>
        {kicker && <p className={frame.kicker}>{kicker}</p>}
        <h2 id={headingId} className={clsx(frame.title, classNames.title)}>
          {title}
        </h2>
        {subtitle && <p className={clsx(frame.subtitle, classNames.subtitle)}>{subtitle}</p>}
        {children}
      </div>
      {after}
    </section>
  );
}
