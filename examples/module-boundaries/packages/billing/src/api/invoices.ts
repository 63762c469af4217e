import { Order } from "@shop/orders";
import { Pool } from "pg";

const pool = new Pool();

export async function invoiceFor(order: unknown): Promise<string> {
  if (!(order instanceof Order)) {
    throw new Error("not an order");
  }
  await pool.query("INSERT INTO invoices (total) VALUES ($1)", [order.total()]);
  return order.total();
}
