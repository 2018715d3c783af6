// Reads a hexlearn dataset file with apache-arrow (JavaScript) and prints a JSON
// summary that dataset's TestInteropJS compares with what the Go writer wrote.
import { readFileSync } from 'node:fs';
import { tableFromIPC } from 'apache-arrow';

const path = process.argv[2];
const table = tableFromIPC(readFileSync(path));
const md = Object.fromEntries(table.schema.metadata);
const rows = [];
for (const i of [0, 1, table.numRows - 1]) {
  const r = table.get(i);
  rows.push({
    game_id: String(r.game_id),
    ply: r.ply,
    to_move: r.to_move,
    cells: Array.from(r.cells.toArray()),
    value: r.value,
    r_black: r.r_black,
    black_wins_vc: r.black_wins_vc,
    cost_us: r.cost_us === null ? null : String(r.cost_us),
    winner: r.winner,
    true_winner: r.true_winner,
    hash: r.hash.toString(16),
    search_value: r.search_value,
    policy: r.policy === null ? null : Array.from(r.policy.toArray()),
  });
}
console.log(JSON.stringify({
  numRows: table.numRows,
  fields: table.schema.fields.map((f) => f.name),
  cellsType: String(table.schema.fields[5].type),
  format: md['hexlearn.format'],
  version: md['hexlearn.format_version'],
  rows,
}));
