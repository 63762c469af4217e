import { findAllOrders } from "../repositories/orders.js";
import type { Order } from "../repositories/orders.js";

export async function listOrders(): Promise<Order[]> {
  const orders = await findAllOrders();
  return orders.filter((order) => order.status !== "archived");
}
