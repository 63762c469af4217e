// An integration test of the orders controller. It seeds the database with a pool of its own
// and reads the rows back through the repository: fine for a test, a layering violation in
// production code. `exclude "**/*.test.ts"` in architecture.ag leaves it out of the check.
import { Pool } from "pg";
import { findAllOrders } from "../repositories/orders";
import { router } from "./orders";

export async function seedAndList() {
  const pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL });
  await pool.query("insert into orders (id, status, total) values ('o1', 'draft', 10)");
  const orders = await findAllOrders();
  await pool.end();
  return { router, orders };
}
