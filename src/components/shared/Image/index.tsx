import React, {type ImgHTMLAttributes} from 'react';

/**
 * An image that loads lazily and decodes off the main thread unless the
 * caller says otherwise (§9): pass `loading="eager"` for what is above the fold.
 */
export default function Image({
  loading = 'lazy',
  decoding = 'async',
  alt,
  ...props
}: ImgHTMLAttributes<HTMLImageElement> & {alt: string}) {
  return <img loading={loading} decoding={decoding} alt={alt} {...props} />;
}
