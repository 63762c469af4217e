export async function listOrders() {
  const response = await fetch("/api/orders");
  return response.json();
}

export async function createOrder(total: number) {
  const response = await fetch("/api/orders", { method: "POST", body: JSON.stringify({ total }) });
  return response.json();
}

export async function cancelOrder(id: string) {
  await fetch(`/api/orders/${id}`, { method: "DELETE" });
}

export async function loadInvoice(id: string) {
  const response = await fetch(`/api/invoices/${id}`);
  return response.json();
}
