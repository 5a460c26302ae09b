// Prints the figures of a bench JSON file as Markdown table rows (for the README).
// Usage: node scripts/bench-table.js bench.json [prefix...]
import { readFileSync } from 'node:fs';

const [file = 'bench.json', ...prefixes] = process.argv.slice(2);
const report = JSON.parse(readFileSync(file, 'utf8'));
const fmt = (n) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : Number(n.toPrecision(3)).toString());
for (const [name, f] of Object.entries(report.figures)) {
  if (prefixes.length && !prefixes.some((p) => name.startsWith(p))) continue;
  console.log(`| \`${name}\` | ${fmt(f.median)} ${f.unit} | ${fmt(f.min)} – ${fmt(f.max)} |`);
}
