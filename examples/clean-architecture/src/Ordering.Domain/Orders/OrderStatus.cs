namespace Ordering.Domain.Orders;

public enum OrderStatus
{
    Placed,
    Paid,
    Shipped,
    Cancelled,
}
