using System.Text;
using Ordering.Infrastructure.Persistence;

namespace Ordering.Application.Orders;

// Exports a customer's orders as CSV. It needs every order of a customer, which the port does
// not offer, so it takes the Postgres repository itself.
public sealed class ExportOrders
{
    private readonly OrderRepository _orders;

    public ExportOrders(OrderRepository orders)
    {
        _orders = orders;
    }

    public async Task<string> HandleAsync(string customerId, CancellationToken cancellationToken)
    {
        var csv = new StringBuilder("id,total,status\n");
        await foreach (var order in _orders.ListByCustomerAsync(customerId, cancellationToken))
        {
            csv.Append($"{order.Id},{order.Total},{order.Status}\n");
        }
        return csv.ToString();
    }
}
