// The Summary card imports its own stylesheet (Vite bundles it with the card); this tells TypeScript the import is intended.
declare module '*/summary.css';
