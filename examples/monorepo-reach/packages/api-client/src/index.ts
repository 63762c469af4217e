export { fetchOrders } from "./orders";
export type { OrderSummary } from "./orders";
