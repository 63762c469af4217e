using Microsoft.EntityFrameworkCore;

namespace Shop.Data;

public interface IOrderRepository
{
    Task<Order?> FindAsync(Guid id);
    Task<IReadOnlyList<Order>> ListAsync(OrderStatus status);
    Task SaveAsync(Order order);
    Task RemoveAsync(Order order);
}

public class OrderRepository : IOrderRepository
{
    private readonly ShopDbContext _db;

    public OrderRepository(ShopDbContext db)
    {
        _db = db;
    }

    public Task<Order?> FindAsync(Guid id) => _db.Orders.FirstOrDefaultAsync(order => order.Id == id);

    public async Task<IReadOnlyList<Order>> ListAsync(OrderStatus status) =>
        await _db.Orders.Where(order => order.Status == status).ToListAsync();

    public async Task SaveAsync(Order order)
    {
        _db.Orders.Update(order);
        await _db.SaveChangesAsync();
    }

    public async Task RemoveAsync(Order order)
    {
        _db.Orders.Remove(order);
        await _db.SaveChangesAsync();
    }
}
