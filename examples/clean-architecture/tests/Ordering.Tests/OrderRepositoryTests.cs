using Npgsql;
using Ordering.Domain.Orders;
using Ordering.Infrastructure.Persistence;
using Testcontainers.PostgreSql;
using Xunit;

namespace Ordering.Tests;

public sealed class OrderRepositoryTests : IAsyncLifetime
{
    private readonly PostgreSqlContainer _postgres = new PostgreSqlBuilder().Build();

    public Task InitializeAsync() => _postgres.StartAsync();

    public Task DisposeAsync() => _postgres.DisposeAsync().AsTask();

    [Fact]
    public async Task A_placed_order_can_be_found()
    {
        await using var dataSource = NpgsqlDataSource.Create(_postgres.GetConnectionString());
        await using (var schema = dataSource.CreateCommand(
            "CREATE TABLE orders (id uuid PRIMARY KEY, customer_id text, total numeric, status text, placed_at timestamptz)"))
        {
            await schema.ExecuteNonQueryAsync();
        }
        var repository = new OrderRepository(dataSource);
        var order = Order.Place("c-1", 10m, DateTimeOffset.UtcNow);

        await repository.AddAsync(order, CancellationToken.None);

        Assert.Equal(order.Id, (await repository.FindAsync(order.Id, CancellationToken.None))!.Id);
    }
}
