// nprogress (0.2, the classic theme's progress bar) ships no types; this is the part we call.
declare module 'nprogress' {
  const nprogress: {configure(settings: {template?: string; barSelector?: string}): void};
  export default nprogress;
}
