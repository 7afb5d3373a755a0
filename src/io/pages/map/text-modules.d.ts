// Files the build bundles as text (esbuild's `with { type: 'text' }`): Leaflet and the page's own script.
declare module 'leaflet/dist/leaflet.js' {
  const text: string;
  export default text;
}
declare module 'leaflet/dist/leaflet.css' {
  const text: string;
  export default text;
}
declare module '*/page-script.js' {
  const text: string;
  export default text;
}
