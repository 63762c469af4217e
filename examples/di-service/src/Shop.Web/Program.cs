using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Shop.Application;
using Shop.Data;

var builder = WebApplication.CreateBuilder(args);
var services = builder.Services;

services.AddControllers();
services.AddAuthentication().AddJwtBearer();
services.AddAuthorization();

// Data
services.AddDbContext<ShopDbContext>(options =>
    options.UseNpgsql(builder.Configuration.GetConnectionString("Shop")));
services.AddScoped<IOrderRepository, OrderRepository>();

// Application
services.AddSingleton<IClock, SystemClock>();
services.AddSingleton<ICurrencyRates>(sp => new CurrencyRates(sp.GetRequiredService<IClock>()));
services.AddScoped<IOrderService, OrderService>();
services.AddScoped<ICheckoutService, CheckoutService>();
services.AddTransient(typeof(IPaymentGateway), typeof(PaymentGateway));
services.AddSingleton<IPriceCatalog, PriceCatalog>();
services.TryAddTransient<IReportBuilder, ReportBuilder>();
services.AddSingleton(typeof(IReportScheduler), typeof(ReportScheduler));

var app = builder.Build();

app.UseAuthentication();
app.UseAuthorization();
app.MapControllers();

app.Run();
