/** The bookmarklet, bundled and minified at build time by vite.config.ts (`bookmarkletPlugin`). */
declare module 'virtual:engram-bookmarklet' {
  const source: string;
  export default source;
}
