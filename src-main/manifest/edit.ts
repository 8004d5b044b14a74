// The comment-preserving editor is pure and lives in src-shared, so the Studio's form writes a
// draft exactly as the core writes an edge's edit.
export { editManifestSource } from '../../src-shared/manifest';
