export { priceOf } from "./api/prices";
export { invoiceFor } from "./api/invoices";
