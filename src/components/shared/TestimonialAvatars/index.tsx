import React from 'react';
import Image from '../Image';
import Rating from '../Rating';
import styles from './styles.module.css';

export interface TestimonialAvatarsProps {
  avatars: ReadonlyArray<{name: string; src: string}>;
  /** How many makers the claim speaks for. */
  count: number;
  claim: string;
}

/** Social proof: the avatars of five buyers, five stars and one claim. */
export default function TestimonialAvatars({avatars, count, claim}: TestimonialAvatarsProps) {
  return (
    <div className={styles.wrapper}>
      <ul className={styles.avatars} aria-label="Makers who use it">
        {avatars.map((avatar) => (
          <li key={avatar.src}>
            <Image src={avatar.src} alt={avatar.name} width={44} height={44} className={styles.avatar} />
          </li>
        ))}
      </ul>
      <div className={styles.proof}>
        <Rating value={5} />
        <p className={styles.claim}>
          <strong>{count}</strong> {claim}
        </p>
      </div>
    </div>
  );
}
