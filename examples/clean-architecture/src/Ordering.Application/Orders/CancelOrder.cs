using Ordering.Domain.Orders;

namespace Ordering.Application.Orders;

public sealed class CancelOrder
{
    private readonly IOrderRepository _orders;

    public CancelOrder(IOrderRepository orders)
    {
        _orders = orders;
    }

    public async Task<bool> HandleAsync(Guid id, CancellationToken cancellationToken)
    {
        var order = await _orders.FindAsync(id, cancellationToken);
        if (order is null)
        {
            return false;
        }
        order.Cancel();
        await _orders.UpdateAsync(order, cancellationToken);
        return true;
    }
}
