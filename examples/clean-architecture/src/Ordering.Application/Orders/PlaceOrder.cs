using Ordering.Domain.Orders;

namespace Ordering.Application.Orders;

public sealed record PlaceOrderCommand(string CustomerId, decimal Total);

public sealed class PlaceOrder
{
    private readonly IOrderRepository _orders;
    private readonly TimeProvider _clock;

    public PlaceOrder(IOrderRepository orders, TimeProvider clock)
    {
        _orders = orders;
        _clock = clock;
    }

    public async Task<Guid> HandleAsync(PlaceOrderCommand command, CancellationToken cancellationToken)
    {
        var order = Order.Place(command.CustomerId, command.Total, _clock.GetUtcNow());
        await _orders.AddAsync(order, cancellationToken);
        return order.Id;
    }
}
