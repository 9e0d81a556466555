// Whether a name is a time zone this runtime knows (an IANA name such as UTC or Europe/Paris).
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
