/** WordNet's verb exceptions as wink-lexicon ships them: an inflected form to its base ("went" -> "go"). */
declare module 'wink-lexicon/src/wn-verb-exceptions.js' {
  const exceptions: Readonly<Record<string, string>>;
  export default exceptions;
}
