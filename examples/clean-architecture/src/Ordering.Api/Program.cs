using Ordering.Application.Orders;
using Ordering.Domain.Orders;
using Ordering.Infrastructure;
using Ordering.Infrastructure.Persistence;

var builder = WebApplication.CreateBuilder(args);
var services = builder.Services;

services.AddControllers();
services.AddSingleton(TimeProvider.System);

// The composition root: the one place that knows which implementation serves each port.
services.AddOrdersDatabase(builder.Configuration.GetConnectionString("Orders")!);
services.AddScoped<IOrderRepository, OrderRepository>();
services.AddScoped<OrderRepository>();

services.AddScoped<PlaceOrder>();
services.AddScoped<CancelOrder>();
services.AddScoped<ExportOrders>();

var app = builder.Build();
app.MapControllers();
app.Run();
