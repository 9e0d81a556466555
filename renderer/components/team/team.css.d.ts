// The Team panel imports its own stylesheet (Vite bundles it with the panel); this tells TypeScript the import is intended.
declare module '*/team.css';
