export { loadResourceLayer } from './load-resource-layer';
