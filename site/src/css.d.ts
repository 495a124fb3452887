// Components that own their styles import them (the form renderer does, so the
// console's preview gets the same look); Vite bundles the CSS, TypeScript only
// needs to know such imports exist.
declare module '*.css';
