import { ledger } from "../internal/ledger";

export function priceOf(sku: string): number {
  return ledger.price(sku);
}
