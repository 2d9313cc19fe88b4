/**
 * The demo video's English captions, one a scene, written from the config: `npm start` and
 * `npm run build` write the WebVTT file (src/seo/writeStaticFiles.ts), so a rename reaches the
 * captions without recording the video again; `npm run demo-video` films one scene per caption.
 * Pure: no DOM or Node.
 */
import {appConfig} from '../../../config';

/** How long each scene, and so each caption, is on screen. */
export const SECONDS_PER_SCENE = 3;

/** In the order of the video's scenes. */
export const DEMO_CAPTIONS = [
  `${appConfig.appName}: a landing page that sells your app, ready on day one.`,
  'Feature tabs rotate by themselves and stop when the visitor picks one.',
  'Payments: Stripe Checkout sessions and webhooks, already wired.',
  'Two plans, one-time payments, prices from a single config file.',
  'Answers before the question: an FAQ that opens one item at a time.',
  'Documentation for every part, in the same repository.',
] as const;

function timestamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 23);
}

/** The captions as a WebVTT file. */
export function demoCaptionsVtt(captions: readonly string[] = DEMO_CAPTIONS): string {
  const cues = captions.map(
    (caption, index) =>
      `${timestamp(index * SECONDS_PER_SCENE)} --> ${timestamp((index + 1) * SECONDS_PER_SCENE)}\n${caption}\n`,
  );
  return `WEBVTT\n\n${cues.join('\n')}`;
}
