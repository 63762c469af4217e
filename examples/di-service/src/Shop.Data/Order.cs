namespace Shop.Data;

public enum OrderStatus { Draft, Placed, Shipped, Cancelled }

public class Order
{
    public Guid Id { get; set; }
    public OrderStatus Status { get; set; } = OrderStatus.Draft;
    public decimal Total { get; set; }
}
