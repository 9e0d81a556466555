// The usage dashboard imports its own stylesheet (Vite bundles it with the lazy chunk); this tells TypeScript the import is intended.
declare module '*/usage.css';
