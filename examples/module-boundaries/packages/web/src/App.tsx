import { useState } from "react";
import { formatMoney } from "@shop/shared";
import { priceOf } from "@shop/billing";
// A deep import: the ledger is billing's internal state, not part of its public interface.
import { ledger } from "../../billing/src/internal/ledger";
// The cart component was renamed to CartView; this import resolves to nothing.
import { Cart } from "./components/Cart";

export function App() {
  const [sku] = useState("book");
  ledger.discount(sku, 100);
  return <Cart price={formatMoney(priceOf(sku))} />;
}
