// Quotes one argument for a POSIX shell, so a resume command copied from the app runs as shown.
export function shellArg(value: string): string {
  return /^[A-Za-z0-9._:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
