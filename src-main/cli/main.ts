// Placeholder dispatcher; the CLI issue replaces it.
console.error('capsule: no commands yet');
process.exit(2);
