import { formatMoney } from "@acme/shared";
// A helper pulled in "just for the row type": it drags the database package into the browser bundle.
import { orderRowToSummary } from "@acme/db/mappers";

export interface OrderSummary {
  id: string;
  total: string;
}

export async function fetchOrders(): Promise<OrderSummary[]> {
  const response = await fetch("/api/orders");
  const rows = await response.json();
  return rows.map(orderRowToSummary).map((order: OrderSummary) => ({ ...order, total: formatMoney(order.total) }));
}
