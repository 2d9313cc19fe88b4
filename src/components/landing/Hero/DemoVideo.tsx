import React, {useEffect, useRef} from 'react';
import {useLocation} from '@docusaurus/router';

export interface DemoVideoProps {
  src: string;
  type: string;
  poster: string;
  title: string;
  captions?: string;
}

export const DEMO_ANCHOR = 'demo';

/**
 * The demo, fetched only when played (`preload="none"`), its poster always
 * there. A 'Watch Demo' link to `#demo` scrolls here and starts it.
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

  return (
    <video ref={video} id={DEMO_ANCHOR} controls preload="none" playsInline poster={poster} aria-label={title} width={1280} height={720}>
      <source src={src} type={type} />
      {captions && <track kind="captions" src={captions} srcLang="en" label="English" default />}
    </video>
  );
}
