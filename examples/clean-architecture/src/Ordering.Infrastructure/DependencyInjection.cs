using Microsoft.Extensions.DependencyInjection;
using Npgsql;

namespace Ordering.Infrastructure;

public static class DependencyInjection
{
    // One pooled data source for the process; repositories borrow connections from it.
    public static IServiceCollection AddOrdersDatabase(this IServiceCollection services, string connectionString) =>
        services.AddSingleton(NpgsqlDataSource.Create(connectionString));
}
