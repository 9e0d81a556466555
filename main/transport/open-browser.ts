// Opens the served UI in the user's browser when a person started it at a terminal with a desktop (not in CI, tests or over SSH without one).
export interface BrowserContext {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** True when stdout is a terminal: a person is watching, not a script or a test harness. */
  interactive: boolean;
}

/** Why the browser is not opened, or null when it should be. */
export function reasonNotToOpen(ctx: BrowserContext): string | null {
  if (!ctx.interactive) return 'not started from a terminal';
  if (ctx.env.CI) return 'running in CI';
  if (ctx.platform === 'linux' && !ctx.env.DISPLAY && !ctx.env.WAYLAND_DISPLAY) return 'no desktop display';
  return null;
}

/** Opens `url` with the system's default browser (the `open` package knows each platform, WSL and containers). */
export async function openInBrowser(url: string, ctx: BrowserContext): Promise<string> {
  const why = reasonNotToOpen(ctx);
  if (why) return `Not opening a browser (${why}).`;
  try {
    const { default: open } = await import('open');
    await open(url);
    return 'Opened it in your browser (--no-open stops that).';
  } catch (err) {
    return `Could not open a browser (${(err as Error).message}); open the address yourself.`;
  }
}
