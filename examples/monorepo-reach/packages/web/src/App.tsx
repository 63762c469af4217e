import { useEffect, useState } from "react";
import { fetchOrders, type OrderSummary } from "@acme/api-client";

export function App() {
  const [orders, setOrders] = useState<OrderSummary[]>([]);
  useEffect(() => {
    fetchOrders().then(setOrders);
  }, []);
  return <ul>{orders.map((order) => <li key={order.id}>{order.total}</li>)}</ul>;
}
