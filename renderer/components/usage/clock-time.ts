// A time on the usage page: month, day and clock, with the year when it is not this year's ("Dec 18, 2025, 10:00 AM").

/** `iso` in the viewer's locale and zone; the year is written only when it is not the year of `now`. */
export function clockTime(iso: string, now: number): string {
  const at = new Date(iso);
  const otherYear = at.getFullYear() !== new Date(now).getFullYear();
  return at.toLocaleString(undefined, { ...(otherYear ? { year: 'numeric' } : {}), month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
