// Image objects from the platform's image URLs: avatars, covers and sound artwork. Sizes come from
// the resize hint inside the URL (`cropcenter:720:720`, `c5_720x720`) when the payload gives none.
import type { Image } from './types.ts';
import { prune, text } from './values.ts';

/** Width and height encoded in a CDN resize hint, if any. */
export function sizeFromUrl(url: string): { width: number; height: number } | undefined {
  const match = /cropcenter:(\d+):(\d+)/.exec(url) ?? /~c5_(\d+)x(\d+)/.exec(url);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

export function toImage(url: unknown, width?: number, height?: number): Image | undefined {
  const href = text(url);
  if (href === undefined) return undefined;
  const hinted = width === undefined || height === undefined ? sizeFromUrl(href) : undefined;
  return prune({ type: 'Image' as const, url: href, width: width ?? hinted?.width, height: height ?? hinted?.height });
}

/** Thumb, medium and large variants, smallest first, empty ones skipped. */
export function imageSet(urls: Array<string | undefined>, defaultSizes: number[]): Image[] {
  const images: Image[] = [];
  urls.forEach((url, index) => {
    const size = defaultSizes[index];
    const image = toImage(url);
    if (!image) return;
    images.push(image.width === undefined ? { ...image, width: size, height: size } : image);
  });
  return images;
}

/** The largest image of a set (by width), or undefined for an empty set. */
export function largest(images: Image[]): Image | undefined {
  return images.reduce<Image | undefined>((best, image) => (!best || (image.width ?? 0) > (best.width ?? 0) ? image : best), undefined);
}
