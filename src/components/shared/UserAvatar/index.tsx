import React, {useState} from 'react';
import styles from './styles.module.css';

interface Props {
  photoURL?: string | null;
  /** The name the initial is taken from when there is no photo, or it fails to load. */
  name: string;
  size: number;
}

/** A user's photo, or the initial of their name when there is none (or it fails to load). Decorative: the name is shown beside it. */
export default function UserAvatar({photoURL, name, size}: Props) {
  const [broken, setBroken] = useState(false);
  if (photoURL && !broken) {
    return (
      <img
        src={photoURL}
        alt=""
        width={size}
        height={size}
        className={styles.avatar}
        referrerPolicy="no-referrer"
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span className={styles.initial} style={{width: size, height: size, fontSize: size * 0.32}} aria-hidden="true">
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
