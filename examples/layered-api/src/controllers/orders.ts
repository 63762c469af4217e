import { Router } from "express";
import { Pool } from "pg";
import { listOrders } from "@services/orders";
import type { Order } from "../repositories/orders";

export const router = Router();

router.get("/orders", async (_req, res) => {
  const orders: Order[] = await listOrders();
  res.json(orders);
});

router.get("/orders/count", async (_req, res) => {
  // A shortcut that bypasses the layers: the controller opens its own pool.
  const pool = new Pool({ connectionString: process.env.DATABASE_URL });
  const { rows } = await pool.query("select count(*) from orders");
  res.json(rows[0]);
});
