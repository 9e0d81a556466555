// The comparison view imports its own stylesheet (Vite bundles it); this tells TypeScript the import is intended.
declare module '*/compare-view.css';
