import React, {useId, useState} from 'react';
import clsx from 'clsx';
import {appConfig, landing, type FaqItem} from '../../../config';
import {useSectionAnchor} from '../../../lib/useSectionAnchor';
import frame from '../section.module.css';
import styles from './styles.module.css';

export interface FAQProps {
  items?: readonly FaqItem[];
  title?: string;
  supportEmail?: string;
}

function Item({item}: {item: FaqItem}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <li className={styles.item}>
      <h3 className={styles.question}>
        <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((value) => !value)}>
          <span>{item.question}</span>
          <svg className={styles.icon} width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M2 8h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            {!open && <path d="M8 2v12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
          </svg>
        </button>
      </h3>
      {/* `hidden` keeps a shut answer from screen readers and the tab order. */}
      <div id={panelId} className={styles.answer} data-open={open} hidden={!open}>
        <p>{item.answer}</p>
      </div>
    </li>
  );
}

export default function FAQ({
  items = landing.faq.items,
  title = landing.faq.title,
  supportEmail = appConfig.support.email,
}: FAQProps) {
  const id = useSectionAnchor('faq');
  return (
    <section id={id} className={styles.section} aria-labelledby="faq-title">
      <div className={styles.inner}>
        <div className={styles.intro}>
          <p className={clsx(frame.kicker, styles.kicker)}>FAQ</p>
          <h2 id="faq-title" className={styles.title}>
            {title}
          </h2>
          {supportEmail && (
            <p className={styles.support}>
              Have another question? <a href={`mailto:${supportEmail}`}>Contact support by e-mail</a>
            </p>
          )}
        </div>
        <ul className={styles.list}>
          {items.map((item) => (
            <Item key={item.question} item={item} />
          ))}
        </ul>
      </div>
    </section>
  );
}
