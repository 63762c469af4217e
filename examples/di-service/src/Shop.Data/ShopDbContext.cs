using Microsoft.EntityFrameworkCore;

namespace Shop.Data;

public class ShopDbContext : DbContext
{
    public ShopDbContext(DbContextOptions<ShopDbContext> options) : base(options)
    {
    }

    public DbSet<Order> Orders => Set<Order>();
}
