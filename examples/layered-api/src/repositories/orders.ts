import { Pool } from "pg";

export interface Order {
  id: string;
  status: "draft" | "active" | "archived";
  total: number;
}

const pool = new Pool({ connectionString: process.env.DATABASE_URL });

export async function findAllOrders(): Promise<Order[]> {
  const { rows } = await pool.query<Order>("select id, status, total from orders");
  return rows;
}
