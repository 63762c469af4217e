// A line knows its order, and the order its lines: the two files import each other.
import { Order } from "./order";

export class Line {
  constructor(public readonly sku: string, public readonly quantity: number, public order?: unknown) {}

  belongsTo(order: unknown): boolean {
    return order instanceof Order && this.order === order && order.lines.includes(this);
  }
}
