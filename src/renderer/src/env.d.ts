/** Module shapes the renderer's bundler (Vite) provides. */
declare module '*.css?raw' {
  const text: string;
  export default text;
}
