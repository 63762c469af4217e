using Npgsql;
using Ordering.Domain.Orders;

namespace Ordering.Infrastructure.Persistence;

public sealed class OrderRepository : IOrderRepository
{
    private readonly NpgsqlDataSource _dataSource;

    public OrderRepository(NpgsqlDataSource dataSource)
    {
        _dataSource = dataSource;
    }

    public async Task<Order?> FindAsync(Guid id, CancellationToken cancellationToken)
    {
        await using var command = _dataSource.CreateCommand(
            "SELECT id, customer_id, total, status, placed_at FROM orders WHERE id = $1");
        command.Parameters.AddWithValue(id);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        return await reader.ReadAsync(cancellationToken) ? Read(reader) : null;
    }

    public async Task AddAsync(Order order, CancellationToken cancellationToken)
    {
        await using var command = _dataSource.CreateCommand(
            "INSERT INTO orders (id, customer_id, total, status, placed_at) VALUES ($1, $2, $3, $4, $5)");
        command.Parameters.AddWithValue(order.Id);
        command.Parameters.AddWithValue(order.CustomerId);
        command.Parameters.AddWithValue(order.Total);
        command.Parameters.AddWithValue(order.Status.ToString());
        command.Parameters.AddWithValue(order.PlacedAt);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    public async Task UpdateAsync(Order order, CancellationToken cancellationToken)
    {
        await using var command = _dataSource.CreateCommand("UPDATE orders SET status = $2 WHERE id = $1");
        command.Parameters.AddWithValue(order.Id);
        command.Parameters.AddWithValue(order.Status.ToString());
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    // Not on the port: only this Postgres implementation streams a customer's orders.
    public async IAsyncEnumerable<Order> ListByCustomerAsync(
        string customerId,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var command = _dataSource.CreateCommand(
            "SELECT id, customer_id, total, status, placed_at FROM orders WHERE customer_id = $1");
        command.Parameters.AddWithValue(customerId);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            yield return Read(reader);
        }
    }

    private static Order Read(NpgsqlDataReader reader) =>
        new(
            reader.GetGuid(0),
            reader.GetString(1),
            reader.GetDecimal(2),
            Enum.Parse<OrderStatus>(reader.GetString(3)),
            reader.GetFieldValue<DateTimeOffset>(4));
}
