export { ManifestPanel } from './ManifestPanel';
