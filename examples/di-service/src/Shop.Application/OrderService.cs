using Shop.Data;

namespace Shop.Application;

public interface IOrderService
{
    Task<Order?> GetAsync(Guid id);
    Task<Order?> UpdateAsync(Guid id, Order changes);
    Task<Order?> DeleteAsync(Guid id);
}

public class OrderService : IOrderService
{
    private readonly IOrderRepository _orders;
    private readonly IClock _clock;

    public OrderService(IOrderRepository orders, IClock clock)
    {
        _orders = orders;
        _clock = clock;
    }

    public Task<Order?> GetAsync(Guid id) => _orders.FindAsync(id);

    public async Task<Order?> UpdateAsync(Guid id, Order changes)
    {
        var order = await _orders.FindAsync(id);
        if (order is null)
        {
            return null;
        }
        order.Status = changes.Status;
        order.Total = changes.Total;
        await _orders.SaveAsync(order);
        return order;
    }

    public async Task<Order?> DeleteAsync(Guid id)
    {
        var order = await _orders.FindAsync(id);
        if (order is not null)
        {
            await _orders.RemoveAsync(order);
        }
        return order;
    }
}
