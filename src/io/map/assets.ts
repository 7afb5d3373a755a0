import leafletJs from 'leaflet/dist/leaflet.js' with { type: 'text' };
import leafletCss from 'leaflet/dist/leaflet.css' with { type: 'text' };
import pageScript from './page-script.js' with { type: 'text' };
export const A = [leafletJs, leafletCss, pageScript];
