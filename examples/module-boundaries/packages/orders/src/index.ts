export { Order } from "./order";
export { Line } from "./line";
