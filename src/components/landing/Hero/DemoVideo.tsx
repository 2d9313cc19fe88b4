import React, {useEffect, useRef} from 'react';
import {useLocation} from '@docusaurus/router';
import Image from '../../shared/Image';
import {posterFile, posterSrcSet, type PosterImages} from './poster';
import styles from './styles.module.css';

export interface DemoVideoProps {
  src: string;
  type: string;
  poster: PosterImages;
  title: string;
  captions?: string;
}

export const DEMO_ANCHOR = 'demo';

/**
 * A transparent 1x1 GIF as the video's own poster. Without any poster, Chromium paints an idle
 * video's box an opaque grey (with "0:00" on it) until it plays, hiding the image beneath; with
 * a transparent one, the designed poster shows through at every width.
 */
const SEE_THROUGH_POSTER = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** The width the hero gives the video: the whole column under 960 px, half of 72rem above. */
const POSTER_SIZES = '(max-width: 960px) calc(100vw - 2.5rem), 33rem';

/**
 * The demo, fetched only when played (`preload="none"`). Its poster is an
 * image under the video rather than the `poster` attribute (which holds a
 * see-through image), since the attribute takes one URL and no priority: the image is the page's largest paint, so it comes in
 * the width the screen needs and ahead of everything else. The video is
 * transparent until it plays, then covers it.
 */
export default function DemoVideo({src, type, poster, title, captions}: DemoVideoProps) {
  const video = useRef<HTMLVideoElement>(null);
  const {hash} = useLocation();

  useEffect(() => {
    if (hash === `#${DEMO_ANCHOR}`) {
      // Browsers refuse to start sound without a gesture; muted play always works.
      const element = video.current;
      if (!element) return;
      element.muted = true;
      element.play().catch(() => {});
    }
  }, [hash]);

  const largest = Math.max(...poster.widths);
  return (
    <div className={styles.player}>
      <Image
        className={styles.poster}
        src={posterFile(poster, largest)}
        srcSet={posterSrcSet(poster)}
        sizes={POSTER_SIZES}
        width={largest}
        height={Math.round((largest * 9) / 16)}
        alt=""
        loading="eager"
        fetchPriority="high"
      />
      <video
        ref={video}
        id={DEMO_ANCHOR}
        controls
        preload="none"
        poster={SEE_THROUGH_POSTER}
        playsInline
        aria-label={title}
        width={1280}
        height={720}>
        <source src={src} type={type} />
        {captions && <track kind="captions" src={captions} srcLang="en" label="English" default />}
      </video>
    </div>
  );
}
