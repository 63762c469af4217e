import { formatMoney } from "@shop/shared";
import { Line } from "./line";
// The domain reaches up into billing to price itself: Orders does not declare Billing.
import { priceOf } from "@shop/billing";

export class Order {
  readonly lines: Line[] = [];

  add(sku: string, quantity: number): Line {
    const line = new Line(sku, quantity, this);
    this.lines.push(line);
    return line;
  }

  total(): string {
    return formatMoney(this.lines.reduce((sum, line) => sum + priceOf(line.sku) * line.quantity, 0));
  }
}
