// The Settings page imports its own stylesheet (Vite bundles it with the lazy chunk); this tells TypeScript the import is intended.
declare module '*/settings.css';
