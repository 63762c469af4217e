using Shop.Data;

namespace Shop.Application;

public interface IReportBuilder
{
    Task<string> DailySalesAsync();
}

/// A transient builder that reads orders through the scoped DbContext.
public class ReportBuilder : IReportBuilder
{
    private readonly ShopDbContext _db;

    public ReportBuilder(ShopDbContext db)
    {
        _db = db;
    }

    public Task<string> DailySalesAsync() =>
        Task.FromResult($"{_db.Orders.Count(order => order.Status == OrderStatus.Placed)} orders");
}

public interface IReportScheduler
{
    Task RunAsync(CancellationToken cancellationToken);
}

/// A singleton scheduler that keeps its transient builder, and with it the builder's
/// DbContext, for the lifetime of the application.
public sealed class ReportScheduler : IReportScheduler
{
    private readonly IReportBuilder _builder;

    public ReportScheduler(IReportBuilder builder)
    {
        _builder = builder;
    }

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            await _builder.DailySalesAsync();
            await Task.Delay(TimeSpan.FromHours(24), cancellationToken);
        }
    }
}
