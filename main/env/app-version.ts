// The app's version, taken from package.json at build (and test) time.
import pkg from '../../package.json' with { type: 'json' };

export const appVersion: string = pkg.version;
