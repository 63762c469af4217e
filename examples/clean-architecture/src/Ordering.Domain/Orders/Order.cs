namespace Ordering.Domain.Orders;

public sealed class Order
{
    public Order(Guid id, string customerId, decimal total, OrderStatus status, DateTimeOffset placedAt)
    {
        Id = id;
        CustomerId = customerId;
        Total = total;
        Status = status;
        PlacedAt = placedAt;
    }

    public Guid Id { get; }
    public string CustomerId { get; }
    public decimal Total { get; }
    public OrderStatus Status { get; private set; }
    public DateTimeOffset PlacedAt { get; }

    public static Order Place(string customerId, decimal total, DateTimeOffset now)
    {
        if (total <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(total), "an order costs something");
        }
        return new Order(Guid.NewGuid(), customerId, total, OrderStatus.Placed, now);
    }

    public void Cancel()
    {
        if (Status == OrderStatus.Shipped)
        {
            throw new InvalidOperationException("a shipped order cannot be cancelled");
        }
        Status = OrderStatus.Cancelled;
    }
}
