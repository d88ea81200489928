// `npm run demo`: the main job on the bundled demo data. Filled in once `serve` and `report` land.
console.error("adreport demo: not yet: it needs `adreport serve` and `adreport report`, which are still being built");
process.exit(1);
