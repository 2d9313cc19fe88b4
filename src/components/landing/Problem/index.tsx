import React from 'react';
import {landing} from '../../../config';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

export interface ProblemProps {
  content?: typeof landing.problem;
}

/** The pain before the cure: three steps from idea to a quit project. */
export default function Problem({content = landing.problem}: ProblemProps) {
  return (
    <LandingSection titleId="problem-title" title={content.title} subtitle={content.subtitle} classNames={styles}>
      <ol className={styles.steps}>
        {content.steps.map((step, index) => (
          <li key={step.text} className={styles.step}>
            <span className={styles.emoji} aria-hidden="true">
              {step.emoji}
            </span>
            <span className={styles.stepText}>{step.text}</span>
            {index < content.steps.length - 1 && (
              <svg className={styles.arrow} width="32" height="32" viewBox="0 0 24 24" aria-hidden="true">
                <path
                  d="M5 12h14m-5-5 5 5-5 5"
                  stroke="currentColor"
                  strokeWidth="2"
                  fill="none"
                  strokeLinecap="round"
                />
              </svg>
            )}
          </li>
        ))}
      </ol>
      <p className={styles.warning}>{content.warning}</p>
    </LandingSection>
  );
}
