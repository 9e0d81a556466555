// Which link targets may leave the app (the user's browser or mail program): http(s) pages and mailto, nothing else.
export function externalLinkTarget(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === 'mailto:') return parsed.href;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  // Credentials in a link are a phishing trick, never something a session viewer needs to follow.
  if (parsed.username || parsed.password) return null;
  return parsed.href;
}
