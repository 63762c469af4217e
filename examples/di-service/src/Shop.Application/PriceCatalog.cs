using Shop.Data;

namespace Shop.Application;

public interface IPriceCatalog
{
    decimal PriceOf(string sku);
}

/// Registered as a singleton to keep prices in memory, but it holds the request-scoped
/// DbContext: every request after the first uses a disposed (or shared) context.
public sealed class PriceCatalog : IPriceCatalog
{
    private readonly ShopDbContext _db;
    private readonly Dictionary<string, decimal> _prices = new();

    public PriceCatalog(ShopDbContext db)
    {
        _db = db;
    }

    public decimal PriceOf(string sku) =>
        _prices.TryGetValue(sku, out var price) ? price : 0m;
}
