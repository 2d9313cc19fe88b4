/** The demo's poster, one WebP file per width, so each screen downloads the width it shows. */
export interface PosterImages {
  /** The files' common path: `${path}-${width}.webp`. */
  path: string;
  widths: readonly number[];
}

export function posterFile(poster: PosterImages, width: number): string {
  return `${poster.path}-${width}.webp`;
}

export function posterSrcSet(poster: PosterImages): string {
  return poster.widths.map((width) => `${posterFile(poster, width)} ${width}w`).join(', ');
}
