import { Pool } from "pg";

const pool = new Pool({ connectionString: process.env.DATABASE_URL });

export async function loadProfile(id: string) {
  const result = await pool.query("select id, email from profiles where id = $1", [id]);
  return result.rows[0];
}
