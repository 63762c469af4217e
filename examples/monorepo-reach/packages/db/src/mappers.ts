import { pool } from "./index";

export function orderRowToSummary(row: { id: string; total_cents: number }) {
  return { id: row.id, total: String(row.total_cents / 100) };
}

export async function countOrders(): Promise<number> {
  const { rows } = await pool.query("select count(*) as n from orders");
  return Number(rows[0].n);
}
